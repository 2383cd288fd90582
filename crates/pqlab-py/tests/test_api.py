"""The module's surface: the type stubs shipped in the wheel (pqlab/__init__.pyi, from the
repository root's pqlab.pyi) name exactly the classes and methods the extension has."""

import ast
import pathlib

import pytest

import pqlab


def stub_classes():
    path = pathlib.Path(pqlab.__file__).with_name("__init__.pyi")
    if not path.is_file():
        pytest.skip(f"no stub file beside the installed module ({path})")
    tree = ast.parse(path.read_text())
    return {
        node.name: {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
        for node in tree.body
        if isinstance(node, ast.ClassDef)
    }


def test_stubs_match_the_module():
    stubs = stub_classes()
    runtime = {name for name in dir(pqlab) if isinstance(getattr(pqlab, name), type)}
    assert set(stubs) == runtime
    assert len(runtime) == 1 + 2 * (3 + 3 + 2)
    for name, methods in stubs.items():
        cls = getattr(pqlab, name)
        for method in methods:
            assert hasattr(cls, method), f"{name}.{method}"
        if name != "InvalidSignature":
            public = {m for m in vars(cls) if not m.startswith("_")}
            assert public == methods - {"__eq__"}, name


def test_stub_functions_match_the_module():
    path = pathlib.Path(pqlab.__file__).with_name("__init__.pyi")
    if not path.is_file():
        pytest.skip(f"no stub file beside the installed module ({path})")
    tree = ast.parse(path.read_text())
    stubs = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    runtime = {name for name in dir(pqlab) if callable(getattr(pqlab, name)) and not isinstance(getattr(pqlab, name), type)}
    assert stubs == runtime == {
        "load_pem_private_key",
        "load_der_private_key",
        "load_pem_public_key",
        "load_der_public_key",
    }


def test_exceptions():
    assert issubclass(pqlab.InvalidSignature, Exception)
    assert isinstance(pqlab.__version__, str)


def test_bytes_like_inputs():
    """Inputs may be bytes, bytearray or memoryview (as pyca/cryptography's Buffer); str is a
    TypeError."""
    seed = bytes(range(32))
    key = pqlab.MLDSA44PrivateKey.from_seed_bytes(bytearray(seed))
    assert key.private_bytes_raw() == seed
    assert pqlab.MLDSA44PrivateKey.from_seed_bytes(memoryview(seed)).public_key() == key.public_key()
    sig = key.sign(bytearray(b"msg"), memoryview(b"ctx"))
    key.public_key().verify(memoryview(sig), bytearray(b"msg"), bytearray(b"ctx"))
    pub = pqlab.MLDSA44PublicKey.from_public_bytes(bytearray(key.public_key().public_bytes_raw()))
    assert pub == key.public_key()
    dk = pqlab.MLKEM768PrivateKey.from_seed_bytes(bytearray(64))
    secret, ct = dk.public_key().encapsulate()
    assert dk.decapsulate(bytearray(ct)) == dk.decapsulate(memoryview(ct)) == secret
    falcon = pqlab.Falcon512PrivateKey.from_private_bytes(
        bytearray(pqlab.Falcon512PrivateKey.from_seed_bytes(memoryview(bytes(48))).private_bytes_raw())
    )
    falcon.public_key().verify(bytearray(falcon.sign(memoryview(b"m"))), b"m")
    for bad in ("text", 5, None):
        with pytest.raises(TypeError):
            key.sign(bad)
        with pytest.raises(TypeError):
            pqlab.MLKEM768PrivateKey.from_seed_bytes(bad)
