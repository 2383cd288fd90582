"""ML-DSA (FIPS 204): round trips, rejected signatures, errors, and known answers (NIST ACVP and
Wycheproof vectors, byte for byte)."""

import pytest

import pqlab
from conftest import acvp_cases, h, load_json

SETS = {
    "ML-DSA-44": (pqlab.MLDSA44PrivateKey, pqlab.MLDSA44PublicKey, 1312, 2560, 2420),
    "ML-DSA-65": (pqlab.MLDSA65PrivateKey, pqlab.MLDSA65PublicKey, 1952, 4032, 3309),
    "ML-DSA-87": (pqlab.MLDSA87PrivateKey, pqlab.MLDSA87PublicKey, 2592, 4896, 4627),
}
NAMES = list(SETS)


@pytest.mark.parametrize("name", NAMES)
def test_round_trip(name):
    priv_cls, pub_cls, pk_len, sk_len, sig_len = SETS[name]
    key = priv_cls.generate()
    pub = key.public_key()
    assert len(pub.public_bytes_raw()) == pk_len
    assert len(key.private_bytes_raw()) == 32
    assert len(key.private_bytes_expanded()) == sk_len
    for context in (b"", b"ctx", bytes(255)):
        sig = key.sign(b"message", context)
        assert len(sig) == sig_len
        pub.verify(sig, b"message", context)
    sig = key.sign(b"message")
    pub.verify(sig, b"message")
    pub.verify(sig, b"message", context=None)
    # The same key again from its seed, its expanded form and its public bytes.
    again = priv_cls.from_seed_bytes(key.private_bytes_raw())
    assert again.public_key() == pub
    assert again.private_bytes_expanded() == key.private_bytes_expanded()
    expanded = priv_cls.from_expanded_bytes(key.private_bytes_expanded())
    assert expanded.public_key() == pub
    pub.verify(expanded.sign(b"m", b"c"), b"m", b"c")
    assert pub_cls.from_public_bytes(pub.public_bytes_raw()) == pub
    assert priv_cls.generate().public_key() != pub


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_and_hedged(name):
    key = SETS[name][0].from_seed_bytes(bytes(range(32)))
    one = key.sign(b"msg", b"c", deterministic=True)
    assert key.sign(b"msg", b"c", deterministic=True) == one
    assert key.sign(b"msg", b"c") != key.sign(b"msg", b"c")


@pytest.mark.parametrize("name", NAMES)
def test_wrong_signatures_rejected(name):
    key = SETS[name][0].generate()
    pub = key.public_key()
    sig = key.sign(b"message", b"context")
    with pytest.raises(pqlab.InvalidSignature):
        pub.verify(sig, b"messagE", b"context")
    with pytest.raises(pqlab.InvalidSignature):
        pub.verify(sig, b"message", b"other")
    with pytest.raises(pqlab.InvalidSignature):
        pub.verify(sig, b"message")
    with pytest.raises(pqlab.InvalidSignature):
        SETS[name][0].generate().public_key().verify(sig, b"message", b"context")
    for pos in (0, len(sig) // 2, len(sig) - 1):
        bad = bytearray(sig)
        bad[pos] ^= 0x01
        with pytest.raises(pqlab.InvalidSignature):
            pub.verify(bytes(bad), b"message", b"context")
    for bad in (sig[:-1], sig + b"\x00", b""):
        with pytest.raises(pqlab.InvalidSignature):
            pub.verify(bad, b"message", b"context")


@pytest.mark.parametrize("name", NAMES)
def test_value_errors(name):
    priv_cls, pub_cls, pk_len, sk_len, _ = SETS[name]
    key = priv_cls.generate()
    for seed in (b"", bytes(31), bytes(33)):
        with pytest.raises(ValueError):
            priv_cls.from_seed_bytes(seed)
    with pytest.raises(ValueError):
        priv_cls.from_expanded_bytes(bytes(sk_len - 1))
    for pk in (b"", bytes(pk_len - 1), bytes(pk_len + 1)):
        with pytest.raises(ValueError):
            pub_cls.from_public_bytes(pk)
    with pytest.raises(ValueError):
        key.sign(b"m", bytes(256))
    with pytest.raises(ValueError):
        key.public_key().verify(key.sign(b"m"), b"m", bytes(256))
    # An expanded key has no seed to give.
    expanded = priv_cls.from_expanded_bytes(key.private_bytes_expanded())
    with pytest.raises(ValueError):
        expanded.private_bytes_raw()
    with pytest.raises(TypeError):
        key.sign("text is not bytes")


def test_acvp_keygen(vectors):
    seen = {}
    for group, test, want in acvp_cases(vectors, "ML-DSA-keyGen-FIPS204"):
        name = group["parameterSet"]
        if seen.get(name, 0) == 3:
            continue
        seen[name] = seen.get(name, 0) + 1
        key = SETS[name][0].from_seed_bytes(h(test["seed"]))
        assert key.public_key().public_bytes_raw() == h(want["pk"])
        assert key.private_bytes_expanded() == h(want["sk"])
    assert seen == {n: 3 for n in NAMES}


def test_acvp_siggen_deterministic(vectors):
    """Deterministic pure ML-DSA signatures of the external interface, from seed-form and
    expanded-form keys: three per parameter set and key form."""
    seen = {}
    for group, test, want in acvp_cases(vectors, "ML-DSA-sigGen-FIPS204-tr1"):
        if not (
            group["deterministic"]
            and group["signatureInterface"] == "external"
            and group["preHash"] == "pure"
        ):
            continue
        name, form = group["parameterSet"], group["keyFormat"]
        if seen.get((name, form), 0) == 3:
            continue
        seen[(name, form)] = seen.get((name, form), 0) + 1
        priv_cls = SETS[name][0]
        if form == "seed":
            key = priv_cls.from_seed_bytes(h(test["seed"]))
        else:
            key = priv_cls.from_expanded_bytes(h(test["sk"]))
        sig = key.sign(h(test["message"]), h(test["context"]), deterministic=True)
        assert sig == h(want["signature"])
        key.public_key().verify(sig, h(test["message"]), h(test["context"]))
    assert len(seen) == 6 and set(seen.values()) == {3}


@pytest.mark.parametrize("bits", ["44", "65", "87"])
def test_wycheproof_verify(vectors, bits):
    data = load_json(vectors / "wycheproof" / "testvectors_v1" / f"mldsa_{bits}_verify_test.json")
    pub_cls = SETS[f"ML-DSA-{bits}"][1]
    counts = {"valid": 0, "invalid": 0}
    for group in data["testGroups"]:
        try:
            pub = pub_cls.from_public_bytes(h(group["publicKey"]))
        except ValueError:
            pub = None
        for test in group["tests"]:
            counts[test["result"]] += 1
            args = (h(test["sig"]), h(test["msg"]), h(test.get("ctx", "")))
            if pub is None:
                # A public key of the wrong length: every signature under it is invalid.
                assert test["result"] == "invalid"
            elif test["result"] == "valid":
                pub.verify(*args)
            else:
                # A context over 255 bytes is a ValueError, any other failure InvalidSignature.
                error = ValueError if len(args[2]) > 255 else pqlab.InvalidSignature
                with pytest.raises(error):
                    pub.verify(*args)
    assert counts["valid"] > 50 and counts["invalid"] > 50
