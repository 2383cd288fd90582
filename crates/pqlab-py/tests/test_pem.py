"""PEM / DER key documents (PKCS#8 and SubjectPublicKeyInfo): round trips for the eight
parameter sets, the loaders' choice of class by OID, refused inputs (ValueError with the codec's
message, never a panic), a Falcon key written by the ``pqlab`` command, and interoperability
with pyca/cryptography 48 both ways (skipped where it has no ML-DSA / ML-KEM)."""

import os
import pathlib
import random
import shutil
import subprocess

import pytest

import pqlab

DATA = pathlib.Path(__file__).resolve().parent / "data"

SIGNATURES = ["MLDSA44", "MLDSA65", "MLDSA87", "Falcon512", "Falcon1024"]
KEMS = ["MLKEM512", "MLKEM768", "MLKEM1024"]
ALL = SIGNATURES + KEMS

# The dotted OID of each parameter set, as its DER contents bytes (the last arc is one byte).
OID_BYTES = {
    "MLDSA44": bytes.fromhex("608648016503040311"),
    "MLDSA65": bytes.fromhex("608648016503040312"),
    "MLDSA87": bytes.fromhex("608648016503040313"),
    "MLKEM512": bytes.fromhex("608648016503040401"),
    "MLKEM768": bytes.fromhex("608648016503040402"),
    "MLKEM1024": bytes.fromhex("608648016503040403"),
}


def classes(name):
    return getattr(pqlab, f"{name}PrivateKey"), getattr(pqlab, f"{name}PublicKey")


_KEYS = {}


def key(name):
    """One generated key per parameter set (Falcon key generation takes milliseconds)."""
    if name not in _KEYS:
        _KEYS[name] = classes(name)[0].generate()
    return _KEYS[name]


def with_oid(der, old, new):
    """`der` with the algorithm OID `old` replaced by `new` (same length)."""
    assert der.count(old) == 1
    return der.replace(old, new)


def check_same_key(a, b, name):
    """`a` and `b` are the same private key: same public key, and they work together."""
    assert type(a) is type(b)
    assert a.public_key() == b.public_key()
    if name in KEMS:
        secret, ct = a.public_key().encapsulate()
        assert b.decapsulate(ct) == secret
    elif name.startswith("Falcon"):
        a.public_key().verify(b.sign(b"pem"), b"pem")
    else:
        a.public_key().verify(b.sign(b"pem", b"ctx"), b"pem", b"ctx")


@pytest.mark.parametrize("name", ALL)
def test_round_trips(name):
    private_cls, public_cls = classes(name)
    sk = key(name)
    der = sk.private_bytes_der()
    pem = sk.private_bytes_pem()
    assert pem.startswith(b"-----BEGIN PRIVATE KEY-----\n")
    assert pem.endswith(b"-----END PRIVATE KEY-----\n")
    for loaded in (
        pqlab.load_der_private_key(der),
        pqlab.load_pem_private_key(pem),
        pqlab.load_der_private_key(bytearray(der)),
        pqlab.load_pem_private_key(memoryview(pem)),
        pqlab.load_der_private_key(der, password=None),
    ):
        assert isinstance(loaded, private_cls)
        check_same_key(sk, loaded, name)
        assert loaded.private_bytes_der() == der  # the canonical form again
        assert loaded.private_bytes_raw() == sk.private_bytes_raw()
    pk = sk.public_key()
    pk_der, pk_pem = pk.public_bytes_der(), pk.public_bytes_pem()
    assert pk_pem.startswith(b"-----BEGIN PUBLIC KEY-----\n")
    for loaded in (pqlab.load_der_public_key(pk_der), pqlab.load_pem_public_key(pk_pem)):
        assert isinstance(loaded, public_cls)
        assert loaded == pk
        assert loaded.public_bytes_raw() == pk.public_bytes_raw()
        assert loaded.public_bytes_der() == pk_der
    # Explanatory text before the armour (RFC 7468, Section 5.2) and surrounding white space.
    assert pqlab.load_pem_public_key(b"Subject: x\n" + pk_pem + b"\n\n") == pk


@pytest.mark.parametrize("name", ["MLDSA44", "MLDSA65", "MLDSA87"] + KEMS)
def test_seed_form_and_expanded_form(name):
    private_cls, _ = classes(name)
    sk = key(name)
    seed = sk.private_bytes_raw()
    der = sk.private_bytes_der()
    # The IETF seed form: privateKey holds [0] IMPLICIT OCTET STRING with the seed, at the end.
    assert der.endswith(bytes([0x80, len(seed)]) + seed)
    # A key without seed is written in the expandedKey form, which loads back the same key.
    expanded = private_cls.from_expanded_bytes(sk.private_bytes_expanded())
    exp_der = expanded.private_bytes_der()
    assert exp_der.endswith(sk.private_bytes_expanded())
    assert len(exp_der) > len(der)
    loaded = pqlab.load_der_private_key(exp_der)
    check_same_key(sk, loaded, name)
    with pytest.raises(ValueError, match="has no seed"):
        loaded.private_bytes_raw()


def test_falcon_private_form_is_oqs_sk_then_pk():
    sk = key("Falcon512")
    der = sk.private_bytes_der()
    assert der.endswith(sk.private_bytes_raw() + sk.public_key().public_bytes_raw())
    assert bytes.fromhex("2bce0f030b") in der  # 1.3.9999.3.11 (oqs-provider's Falcon-512)


# --- refused inputs ----------------------------------------------------------------------------


def raises_value_error(fn, data, match=None):
    """`fn(data)` raises ValueError (a pyo3 panic would be a PanicException, not a ValueError)."""
    with pytest.raises(ValueError, match=match):
        fn(data)


LOADERS = [
    pqlab.load_der_private_key,
    pqlab.load_pem_private_key,
    pqlab.load_der_public_key,
    pqlab.load_pem_public_key,
]


@pytest.mark.parametrize("loader", LOADERS)
def test_garbage_is_a_value_error(loader):
    for data in (b"", b"not a key", b"\x30", b"\x30\x82\xff\xff", os.urandom(100), b"\x00" * 64):
        raises_value_error(loader, data)
    raises_value_error(loader, b"-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n")


@pytest.mark.parametrize("name", ALL)
def test_truncated_documents_are_value_errors(name):
    sk = key(name)
    der, pem = sk.private_bytes_der(), sk.private_bytes_pem()
    pk_der, pk_pem = sk.public_key().public_bytes_der(), sk.public_key().public_bytes_pem()
    for cut in (1, 2, 3, 10, 20, len(der) // 2, len(der) - 1):
        raises_value_error(pqlab.load_der_private_key, der[:cut])
    for cut in (1, 10, 20, len(pk_der) // 2, len(pk_der) - 1):
        raises_value_error(pqlab.load_der_public_key, pk_der[:cut])
    raises_value_error(pqlab.load_pem_private_key, pem[: len(pem) // 2], "malformed PEM")
    raises_value_error(pqlab.load_pem_public_key, pk_pem[:-30], "malformed PEM")
    # A trailing byte is refused too.
    raises_value_error(pqlab.load_der_private_key, der + b"\x00")
    raises_value_error(pqlab.load_der_public_key, pk_der + b"\x00")


@pytest.mark.parametrize("name", ["MLDSA44", "MLKEM768", "Falcon512"])
def test_corrupted_documents_never_panic(name):
    """Random byte changes: every outcome is a loaded key or a ValueError."""
    rng = random.Random(18)
    sk = key(name)
    docs = [
        (pqlab.load_der_private_key, sk.private_bytes_der()),
        (pqlab.load_der_public_key, sk.public_key().public_bytes_der()),
    ]
    for loader, doc in docs:
        for _ in range(150):
            bad = bytearray(doc)
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(min(len(bad), 40) if rng.random() < 0.7 else len(bad))
                bad[i] = rng.randrange(256)
            try:
                loader(bytes(bad))
            except ValueError:
                pass


def test_public_and_private_documents_are_not_confused():
    sk = key("MLDSA65")
    pk = sk.public_key()
    raises_value_error(
        pqlab.load_pem_private_key, pk.public_bytes_pem(), "expected PEM 'PRIVATE KEY', found 'PUBLIC KEY'"
    )
    raises_value_error(
        pqlab.load_pem_public_key, sk.private_bytes_pem(), "expected PEM 'PUBLIC KEY', found 'PRIVATE KEY'"
    )
    raises_value_error(pqlab.load_der_private_key, pk.public_bytes_der(), "malformed DER")
    raises_value_error(pqlab.load_der_public_key, sk.private_bytes_der(), "malformed DER")


def test_other_algorithm_lengths_name_the_codec_error():
    """A document whose OID names one parameter set but whose key has another's length."""
    sk = key("MLDSA44")
    expanded = pqlab.MLDSA44PrivateKey.from_expanded_bytes(sk.private_bytes_expanded())
    der = with_oid(expanded.private_bytes_der(), OID_BYTES["MLDSA44"], OID_BYTES["MLDSA65"])
    raises_value_error(pqlab.load_der_private_key, der, "expanded key inside has 2560 bytes, expected 4032")
    spki = with_oid(sk.public_key().public_bytes_der(), OID_BYTES["MLDSA44"], OID_BYTES["MLDSA87"])
    raises_value_error(pqlab.load_der_public_key, spki, "public key inside has 1312 bytes, expected 2592")
    kem = key("MLKEM512").public_key().public_bytes_der()
    kem = with_oid(kem, OID_BYTES["MLKEM512"], OID_BYTES["MLKEM1024"])
    raises_value_error(pqlab.load_der_public_key, kem, "encapsulation key inside has 800 bytes, expected 1568")
    # The seed form of ML-DSA under ML-KEM's OID: the seed has the wrong length.
    seed_doc = with_oid(sk.private_bytes_der(), OID_BYTES["MLDSA44"], OID_BYTES["MLKEM768"])
    raises_value_error(pqlab.load_der_private_key, seed_doc, "seed inside has 32 bytes, expected 64")


def test_hash_ml_dsa_keys_are_refused_by_name():
    sk = key("MLDSA65")
    hash_oid = OID_BYTES["MLDSA65"][:-1] + bytes([0x21])  # 2.16.840.1.101.3.4.3.33
    der = with_oid(sk.private_bytes_der(), OID_BYTES["MLDSA65"], hash_oid)
    raises_value_error(pqlab.load_der_private_key, der, r"HashML-DSA with SHA-512 \(OID 2.16.840.1.101.3.4.3.33\)")
    spki = with_oid(sk.public_key().public_bytes_der(), OID_BYTES["MLDSA65"], hash_oid)
    raises_value_error(pqlab.load_der_public_key, spki, "HashML-DSA")


def test_unknown_algorithm_names_its_oid():
    der = with_oid(key("MLDSA44").public_key().public_bytes_der(), OID_BYTES["MLDSA44"], OID_BYTES["MLDSA44"][:-1] + b"\x7f")
    raises_value_error(pqlab.load_der_public_key, der, r"does not offer \(OID 2.16.840.1.101.3.4.3.127\)")


def test_encrypted_keys_and_passwords_are_refused():
    with pytest.raises(ValueError, match="encrypted private keys are not supported"):
        pqlab.load_pem_private_key(key("MLDSA44").private_bytes_pem(), password=b"secret")
    encrypted = b"-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----\n"
    raises_value_error(pqlab.load_pem_private_key, encrypted, "encrypted private keys are not supported")


# --- a Falcon key written by the pqlab command ---------------------------------------------------


FALCON_SEED = bytes(range(48))


def test_falcon_key_written_by_the_cli_fixture():
    """tests/data/falcon512-cli-{sk,pk}.pem: written by
    ``pqlab keygen falcon-512 --public-key falcon512-cli-pk.pem --secret-key falcon512-cli-sk.pem
    --seed 000102...2f --format pem`` (the seed bytes 0..47)."""
    sk = pqlab.load_pem_private_key((DATA / "falcon512-cli-sk.pem").read_bytes())
    pk = pqlab.load_pem_public_key((DATA / "falcon512-cli-pk.pem").read_bytes())
    assert isinstance(sk, pqlab.Falcon512PrivateKey)
    assert isinstance(pk, pqlab.Falcon512PublicKey)
    assert sk.public_key() == pk
    pk.verify(sk.sign(b"from the cli"), b"from the cli")
    # The command's key of a seed is Python's key of the same seed.
    same = pqlab.Falcon512PrivateKey.from_seed_bytes(FALCON_SEED)
    assert same.public_key() == pk
    assert same.private_bytes_pem() == (DATA / "falcon512-cli-sk.pem").read_bytes()


def pqlab_binary():
    """The `pqlab` command: $PQLAB_BIN, else a build in the repository's target folders."""
    if os.environ.get("PQLAB_BIN"):
        return os.environ["PQLAB_BIN"]
    repo = pathlib.Path(__file__).resolve().parents[3]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", repo / "target"))
    for profile in ("release", "debug"):
        if (target / profile / "pqlab").is_file():
            return str(target / profile / "pqlab")
    return shutil.which("pqlab")


@pytest.mark.parametrize("alg", ["falcon-512", "falcon-1024", "ml-dsa-65", "ml-kem-768"])
def test_keys_written_by_the_cli_now(tmp_path, alg):
    binary = pqlab_binary()
    if binary is None:
        pytest.skip("no pqlab binary (set PQLAB_BIN or build it with cargo build -p pqlab)")
    pk_path, sk_path = tmp_path / "pk.pem", tmp_path / "sk.pem"
    subprocess.run(
        [binary, "keygen", alg, "--public-key", pk_path, "--secret-key", sk_path, "--format", "pem"],
        check=True,
    )
    sk = pqlab.load_pem_private_key(sk_path.read_bytes())
    pk = pqlab.load_pem_public_key(pk_path.read_bytes())
    assert sk.public_key() == pk
    if alg.startswith("ml-kem"):
        return
    msg = tmp_path / "msg"
    msg.write_bytes(b"signed by python")
    sig = tmp_path / "sig"
    context = {"context": b""} if alg.startswith("ml-dsa") else {}
    sig.write_bytes(sk.sign(b"signed by python", **context))
    # Python's signature verifies with the command, and Python's PEM is read by the command.
    pk2 = tmp_path / "pk2.pem"
    pk2.write_bytes(pk.public_bytes_pem())
    out = subprocess.run(
        [binary, "verify", alg, "--public-key", pk2, "--signature", sig, "--in", msg], capture_output=True
    )
    assert out.returncode == 0, out.stderr


# --- interoperability with pyca/cryptography 48 --------------------------------------------------

try:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem

    mldsa.MLDSA44PrivateKey.generate()
    mlkem.MLKEM768PrivateKey.generate()
    PYCA = None
except Exception as e:  # ImportError, or UnsupportedAlgorithm from the OpenSSL back end
    PYCA = f"cryptography has no usable ML-DSA / ML-KEM here: {type(e).__name__}: {e}"

pyca = pytest.mark.skipif(PYCA is not None, reason=PYCA or "")

# pyca/cryptography 48 has no ML-KEM-512.
PYCA_NAMES = ["MLDSA44", "MLDSA65", "MLDSA87", "MLKEM768", "MLKEM1024"]


def pyca_module(name):
    return mldsa if name.startswith("MLDSA") else mlkem


def pyca_private_documents(theirs):
    enc, fmt = serialization.Encoding, serialization.PrivateFormat
    none = serialization.NoEncryption()
    return (
        (pqlab.load_pem_private_key, theirs.private_bytes(enc.PEM, fmt.PKCS8, none)),
        (pqlab.load_der_private_key, theirs.private_bytes(enc.DER, fmt.PKCS8, none)),
    )


def pyca_public_documents(theirs):
    enc, fmt = serialization.Encoding, serialization.PublicFormat
    return (
        (pqlab.load_pem_public_key, theirs.public_bytes(enc.PEM, fmt.SubjectPublicKeyInfo)),
        (pqlab.load_der_public_key, theirs.public_bytes(enc.DER, fmt.SubjectPublicKeyInfo)),
    )


@pyca
@pytest.mark.parametrize("name", PYCA_NAMES)
def test_pyca_documents_load_in_pqlab(name):
    theirs = getattr(pyca_module(name), f"{name}PrivateKey").generate()
    their_pub = theirs.public_key()
    private_cls, public_cls = classes(name)
    for loader, doc in pyca_private_documents(theirs):
        ours = loader(doc)
        assert isinstance(ours, private_cls)
        assert ours.public_key().public_bytes_raw() == their_pub.public_bytes_raw()
        assert ours.private_bytes_raw() == theirs.private_bytes_raw()
        if name in KEMS:
            secret, ct = their_pub.encapsulate()
            assert ours.decapsulate(ct) == secret
        else:
            their_pub.verify(ours.sign(b"interop", b"ctx"), b"interop", b"ctx")
    for loader, doc in pyca_public_documents(their_pub):
        ours = loader(doc)
        assert isinstance(ours, public_cls)
        assert ours.public_bytes_raw() == their_pub.public_bytes_raw()
        if name in KEMS:
            secret, ct = ours.encapsulate()
            assert theirs.decapsulate(ct) == secret
        else:
            ours.verify(theirs.sign(b"interop", b"ctx"), b"interop", b"ctx")
        # The same document, byte for byte, from either side.
        assert ours.public_bytes_der() == their_pub.public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )


@pyca
@pytest.mark.parametrize("name", PYCA_NAMES)
def test_pqlab_documents_load_in_pyca(name):
    ours = key(name)
    their_private_cls = getattr(pyca_module(name), f"{name}PrivateKey")
    their_public_cls = getattr(pyca_module(name), f"{name}PublicKey")
    for doc, load in (
        (ours.private_bytes_pem(), serialization.load_pem_private_key),
        (ours.private_bytes_der(), serialization.load_der_private_key),
    ):
        theirs = load(doc, password=None)
        assert isinstance(theirs, their_private_cls)
        assert theirs.public_key().public_bytes_raw() == ours.public_key().public_bytes_raw()
        # pyca writes the same canonical (seed) form.
        assert theirs.private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ) == ours.private_bytes_der()
        if name in KEMS:
            secret, ct = ours.public_key().encapsulate()
            assert theirs.decapsulate(ct) == secret
        else:
            ours.public_key().verify(theirs.sign(b"back", b"c"), b"back", b"c")
    for doc, load in (
        (ours.public_key().public_bytes_pem(), serialization.load_pem_public_key),
        (ours.public_key().public_bytes_der(), serialization.load_der_public_key),
    ):
        theirs = load(doc)
        assert isinstance(theirs, their_public_cls)
        assert theirs.public_bytes_raw() == ours.public_key().public_bytes_raw()
        if name in KEMS:
            secret, ct = theirs.encapsulate()
            assert ours.decapsulate(ct) == secret
        else:
            theirs.verify(ours.sign(b"there", b"c"), b"there", b"c")
