"""Falcon-512 and Falcon-1024 (round-3 specification v1.2): round trips, rejected signatures,
errors, and the NIST KAT files (key pairs byte for byte, signatures verified)."""

import pathlib

import pytest

import pqlab
from conftest import h

SETS = {
    512: (pqlab.Falcon512PrivateKey, pqlab.Falcon512PublicKey, 897, 1281, 9),
    1024: (pqlab.Falcon1024PrivateKey, pqlab.Falcon1024PublicKey, 1793, 2305, 10),
}


@pytest.fixture(scope="module", params=[512, 1024])
def key(request):
    return request.param, SETS[request.param][0].generate()


def test_round_trip(key):
    n, sk = key
    priv_cls, pub_cls, pk_len, sk_len, logn = SETS[n]
    pub = sk.public_key()
    raw_pk = pub.public_bytes_raw()
    raw_sk = sk.private_bytes_raw()
    assert len(raw_pk) == pk_len and raw_pk[0] == logn
    assert len(raw_sk) == sk_len and raw_sk[0] == 0x50 + logn
    for msg in (b"", b"message", bytes(5000)):
        sig = sk.sign(msg)
        assert sig[0] == 0x30 + logn
        pub.verify(sig, msg)
    assert sk.sign(b"m") != sk.sign(b"m")
    again = priv_cls.from_private_bytes(raw_sk)
    assert again.public_key() == pub
    assert again.private_bytes_raw() == raw_sk
    pub.verify(again.sign(b"m"), b"m")
    assert pub_cls.from_public_bytes(raw_pk) == pub
    seeded = priv_cls.from_seed_bytes(bytes(48))
    assert seeded.private_bytes_raw() == priv_cls.from_seed_bytes(bytes(48)).private_bytes_raw()
    assert seeded.public_key() != pub


def test_wrong_signatures_rejected(key):
    """Every corruption is InvalidSignature, never another exception (a truncated or
    non-canonical encoding does not verify either)."""
    n, sk = key
    pub = sk.public_key()
    sig = sk.sign(b"message")
    with pytest.raises(pqlab.InvalidSignature):
        pub.verify(sig, b"messagE")
    with pytest.raises(pqlab.InvalidSignature):
        SETS[n][0].generate().public_key().verify(sig, b"message")
    for pos in range(len(sig)):
        bad = bytearray(sig)
        bad[pos] ^= 1 << (pos % 8)
        with pytest.raises(pqlab.InvalidSignature):
            pub.verify(bytes(bad), b"message")
    for bad in (b"", sig[:1], sig[:41], sig[:-1], sig + b"\x00", sig + bytes(2000)):
        with pytest.raises(pqlab.InvalidSignature):
            pub.verify(bad, b"message")
    other = 1024 if n == 512 else 512
    with pytest.raises(pqlab.InvalidSignature):
        pub.verify(SETS[other][0].from_seed_bytes(bytes(48)).sign(b"message"), b"message")


@pytest.mark.parametrize("n", [512, 1024])
def test_value_errors(n):
    priv_cls, pub_cls, pk_len, sk_len, logn = SETS[n]
    for seed in (b"", bytes(32), bytes(49)):
        with pytest.raises(ValueError):
            priv_cls.from_seed_bytes(seed)
    for pk in (b"", bytes(pk_len - 1), bytes(pk_len)):  # bytes(pk_len): header 0, not logn
        with pytest.raises(ValueError):
            pub_cls.from_public_bytes(pk)
    # A coefficient of h not below q = 12289 (14 bits all ones).
    with pytest.raises(ValueError):
        pub_cls.from_public_bytes(bytes([logn]) + b"\xff" * (pk_len - 1))
    for raw in (b"", bytes(sk_len), bytes([0x50 + logn]) + bytes(sk_len - 1)):
        with pytest.raises(ValueError):  # wrong length, wrong header, f = 0 not invertible
            priv_cls.from_private_bytes(raw)


class NistDrbg:
    """The AES-256 CTR DRBG of the NIST PQC KAT generator (rng.c: randombytes_init and
    randombytes), with pyca/cryptography's AES."""

    def __init__(self, seed: bytes):
        self.key = bytes(32)
        self.v = bytes(16)
        self._update(seed)

    def _block(self) -> bytes:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

        self.v = ((int.from_bytes(self.v, "big") + 1) % (1 << 128)).to_bytes(16, "big")
        enc = Cipher(algorithms.AES(self.key), modes.ECB()).encryptor()
        return enc.update(self.v) + enc.finalize()

    def _update(self, provided: bytes):
        temp = b"".join(self._block() for _ in range(3))
        temp = bytes(a ^ b for a, b in zip(temp, provided))
        self.key, self.v = temp[:32], temp[32:]

    def random_bytes(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += self._block()
        self._update(bytes(48))
        return out[:n]


def kat_records(path: pathlib.Path, count: int):
    records, record = [], {}
    for line in path.read_text().splitlines():
        if " = " in line:
            k, v = line.split(" = ", 1)
            record[k] = v
        elif not line.strip() and record:
            records.append(record)
            record = {}
            if len(records) == count:
                break
    return records


@pytest.mark.parametrize("n", [512, 1024])
def test_nist_kat(vectors, n):
    """The first 5 records: the key pair from the DRBG's first 48 bytes (as the reference's
    nist.c seeds its key generation) byte for byte; the KAT signature verifies, and does not
    for another message."""
    pytest.importorskip("cryptography", reason="the KAT DRBG needs AES from cryptography")
    priv_cls, pub_cls, _, _, logn = SETS[n]
    records = kat_records(vectors / "falcon-kat" / f"falcon{n}-KAT.rsp", 5)
    assert len(records) == 5
    for rec in records:
        drbg = NistDrbg(h(rec["seed"]))
        key = priv_cls.from_seed_bytes(drbg.random_bytes(48))
        assert key.public_key().public_bytes_raw() == h(rec["pk"])
        assert key.private_bytes_raw() == h(rec["sk"])
        assert priv_cls.from_private_bytes(h(rec["sk"])).public_key().public_bytes_raw() == h(rec["pk"])
        sm, mlen = h(rec["sm"]), int(rec["mlen"])
        sig_len = int.from_bytes(sm[:2], "big")
        nonce, msg, body = sm[2:42], sm[42 : 42 + mlen], sm[42 + mlen :]
        assert msg == h(rec["msg"]) and len(body) == sig_len and body[0] == 0x20 + logn
        detached = bytes([0x30 + logn]) + nonce + body[1:]
        pub = pub_cls.from_public_bytes(h(rec["pk"]))
        pub.verify(detached, msg)
        with pytest.raises(pqlab.InvalidSignature):
            pub.verify(detached, msg + b"x")
