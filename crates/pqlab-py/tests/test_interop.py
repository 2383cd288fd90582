"""Interoperability with pyca/cryptography (48 or later, OpenSSL back end): ML-DSA keys from the
same seed have the same public key and signatures verify both ways; ML-KEM keys from the same
seed agree and encapsulation works both ways. Skipped, with the reason, where the installed
cryptography has no ML-DSA / ML-KEM (older than 48, or an OpenSSL without them)."""

import os

import pytest

import pqlab

try:
    from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem

    mldsa.MLDSA44PrivateKey.generate()
    mlkem.MLKEM768PrivateKey.generate()
    SKIP = None
except Exception as e:  # ImportError, or UnsupportedAlgorithm from the OpenSSL back end
    SKIP = f"cryptography has no usable ML-DSA / ML-KEM here: {type(e).__name__}: {e}"

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

DSA = ["44", "65", "87"]
KEM = ["768", "1024"]  # pyca/cryptography 48 has no ML-KEM-512


def pair(bits):
    return getattr(pqlab, f"MLDSA{bits}PrivateKey"), getattr(mldsa, f"MLDSA{bits}PrivateKey")


@pytest.mark.parametrize("bits", DSA)
def test_mldsa_same_keys_from_seed(bits):
    ours_cls, theirs_cls = pair(bits)
    for _ in range(5):
        seed = os.urandom(32)
        ours, theirs = ours_cls.from_seed_bytes(seed), theirs_cls.from_seed_bytes(seed)
        assert ours.public_key().public_bytes_raw() == theirs.public_key().public_bytes_raw()
        assert theirs.private_bytes_raw() == ours.private_bytes_raw() == seed
    theirs = theirs_cls.generate()
    ours = ours_cls.from_seed_bytes(theirs.private_bytes_raw())
    assert ours.public_key().public_bytes_raw() == theirs.public_key().public_bytes_raw()


@pytest.mark.parametrize("bits", DSA)
def test_mldsa_signatures_both_ways(bits):
    ours_cls, theirs_cls = pair(bits)
    ours = ours_cls.generate()
    theirs = theirs_cls.from_seed_bytes(ours.private_bytes_raw())
    their_pub = getattr(mldsa, f"MLDSA{bits}PublicKey").from_public_bytes(
        ours.public_key().public_bytes_raw()
    )
    our_pub = getattr(pqlab, f"MLDSA{bits}PublicKey").from_public_bytes(
        theirs.public_key().public_bytes_raw()
    )
    for msg, ctx in ((b"", b""), (b"hello", b"ctx"), (os.urandom(3000), os.urandom(255))):
        their_pub.verify(ours.sign(msg, ctx), msg, ctx)
        their_pub.verify(ours.sign(msg, ctx, deterministic=True), msg, ctx)
        our_pub.verify(theirs.sign(msg, ctx), msg, ctx)
    from cryptography.exceptions import InvalidSignature

    with pytest.raises(InvalidSignature):
        their_pub.verify(ours.sign(b"a", b"c"), b"b", b"c")
    with pytest.raises(pqlab.InvalidSignature):
        our_pub.verify(theirs.sign(b"a", b"c"), b"a", b"d")


@pytest.mark.parametrize("bits", KEM)
def test_mlkem_same_keys_from_seed(bits):
    ours_cls = getattr(pqlab, f"MLKEM{bits}PrivateKey")
    theirs_cls = getattr(mlkem, f"MLKEM{bits}PrivateKey")
    for _ in range(5):
        seed = os.urandom(64)
        ours, theirs = ours_cls.from_seed_bytes(seed), theirs_cls.from_seed_bytes(seed)
        assert ours.public_key().public_bytes_raw() == theirs.public_key().public_bytes_raw()
        assert theirs.private_bytes_raw() == ours.private_bytes_raw() == seed


@pytest.mark.parametrize("bits", KEM)
def test_mlkem_encapsulation_both_ways(bits):
    ours = getattr(pqlab, f"MLKEM{bits}PrivateKey").generate()
    theirs = getattr(mlkem, f"MLKEM{bits}PrivateKey").generate()
    # pyca encapsulates to our key; we encapsulate to theirs.
    their_view = getattr(mlkem, f"MLKEM{bits}PublicKey").from_public_bytes(
        ours.public_key().public_bytes_raw()
    )
    our_view = getattr(pqlab, f"MLKEM{bits}PublicKey").from_public_bytes(
        theirs.public_key().public_bytes_raw()
    )
    for _ in range(5):
        secret, ct = their_view.encapsulate()
        assert ours.decapsulate(ct) == secret
        secret, ct = our_view.encapsulate()
        assert theirs.decapsulate(ct) == secret
    # Implicit rejection agrees too: the same key from the same seed rejects alike.
    twin = getattr(mlkem, f"MLKEM{bits}PrivateKey").from_seed_bytes(ours.private_bytes_raw())
    _, ct = their_view.encapsulate()
    bad = bytes([ct[0] ^ 1]) + ct[1:]
    assert ours.decapsulate(bad) == twin.decapsulate(bad)
