"""ML-KEM (FIPS 203): round trips, implicit rejection, errors, and known answers (NIST ACVP and
Wycheproof vectors, byte for byte)."""

import pytest

import pqlab
from conftest import acvp_cases, h, load_json

SETS = {
    "ML-KEM-512": (pqlab.MLKEM512PrivateKey, pqlab.MLKEM512PublicKey, 800, 1632, 768),
    "ML-KEM-768": (pqlab.MLKEM768PrivateKey, pqlab.MLKEM768PublicKey, 1184, 2400, 1088),
    "ML-KEM-1024": (pqlab.MLKEM1024PrivateKey, pqlab.MLKEM1024PublicKey, 1568, 3168, 1568),
}
NAMES = list(SETS)


@pytest.mark.parametrize("name", NAMES)
def test_round_trip(name):
    priv_cls, pub_cls, ek_len, dk_len, ct_len = SETS[name]
    key = priv_cls.generate()
    pub = key.public_key()
    assert len(pub.public_bytes_raw()) == ek_len
    assert len(key.private_bytes_raw()) == 64
    assert len(key.private_bytes_expanded()) == dk_len
    secret, ciphertext = pub.encapsulate()
    assert len(secret) == 32 and len(ciphertext) == ct_len
    assert key.decapsulate(ciphertext) == secret
    assert pub.encapsulate()[0] != secret
    again = priv_cls.from_seed_bytes(key.private_bytes_raw())
    assert again.public_key() == pub
    assert again.decapsulate(ciphertext) == secret
    expanded = priv_cls.from_expanded_bytes(key.private_bytes_expanded())
    assert expanded.decapsulate(ciphertext) == secret
    assert expanded.public_key() == pub
    other = pub_cls.from_public_bytes(pub.public_bytes_raw())
    assert other == pub
    secret2, ciphertext2 = other.encapsulate()
    assert key.decapsulate(ciphertext2) == secret2


@pytest.mark.parametrize("name", NAMES)
def test_implicit_rejection(name):
    key = SETS[name][0].generate()
    secret, ciphertext = key.public_key().encapsulate()
    bad = bytearray(ciphertext)
    bad[5] ^= 0x10
    rejected = key.decapsulate(bytes(bad))
    assert len(rejected) == 32 and rejected != secret
    assert key.decapsulate(bytes(bad)) == rejected


@pytest.mark.parametrize("name", NAMES)
def test_value_errors(name):
    priv_cls, pub_cls, ek_len, dk_len, ct_len = SETS[name]
    key = priv_cls.generate()
    for seed in (b"", bytes(32), bytes(63), bytes(65)):
        with pytest.raises(ValueError):
            priv_cls.from_seed_bytes(seed)
    for ct in (b"", bytes(ct_len - 1), bytes(ct_len + 1)):
        with pytest.raises(ValueError):
            key.decapsulate(ct)
    for ek in (b"", bytes(ek_len - 1), bytes(ek_len + 1)):
        with pytest.raises(ValueError):
            pub_cls.from_public_bytes(ek)
    # FIPS 203, Section 7.2: a coefficient of 4095 (not below q) fails the modulus check.
    ek = bytearray(key.public_key().public_bytes_raw())
    ek[0], ek[1] = 0xFF, ek[1] | 0x0F
    with pytest.raises(ValueError):
        pub_cls.from_public_bytes(bytes(ek))
    # FIPS 203, Section 7.3: a decapsulation key whose H(ek) is wrong fails the hash check.
    dk = bytearray(key.private_bytes_expanded())
    dk[-64] ^= 1
    with pytest.raises(ValueError):
        priv_cls.from_expanded_bytes(bytes(dk))
    with pytest.raises(ValueError):
        priv_cls.from_expanded_bytes(bytes(dk_len - 1))
    with pytest.raises(ValueError):
        priv_cls.from_expanded_bytes(key.private_bytes_expanded()).private_bytes_raw()


def test_acvp_keygen(vectors):
    seen = {}
    for group, test, want in acvp_cases(vectors, "ML-KEM-keyGen-FIPS203"):
        name = group["parameterSet"]
        if seen.get(name, 0) == 3:
            continue
        seen[name] = seen.get(name, 0) + 1
        key = SETS[name][0].from_seed_bytes(h(test["d"]) + h(test["z"]))
        assert key.public_key().public_bytes_raw() == h(want["ek"])
        assert key.private_bytes_expanded() == h(want["dk"])
    assert seen == {n: 3 for n in NAMES}


def test_acvp_decapsulation_and_key_checks(vectors):
    """Decapsulation with expanded keys (valid and modified ciphertexts: the implicit-rejection
    key) and both key checks, every case."""
    counts = {}
    for group, test, want in acvp_cases(vectors, "ML-KEM-encapDecap-FIPS203"):
        name, function = group["parameterSet"], group["function"]
        priv_cls, pub_cls = SETS[name][:2]
        counts[function] = counts.get(function, 0) + 1
        if function == "decapsulation":
            key = priv_cls.from_expanded_bytes(h(test["dk"]))
            assert key.decapsulate(h(test["c"])) == h(want["k"])
        elif function == "encapsulationKeyCheck":
            if want["testPassed"]:
                pub_cls.from_public_bytes(h(test["ek"]))
            else:
                with pytest.raises(ValueError):
                    pub_cls.from_public_bytes(h(test["ek"]))
        elif function == "decapsulationKeyCheck":
            if want["testPassed"]:
                priv_cls.from_expanded_bytes(h(test["dk"]))
            else:
                with pytest.raises(ValueError):
                    priv_cls.from_expanded_bytes(h(test["dk"]))
    assert counts["decapsulation"] == 30
    assert counts["encapsulationKeyCheck"] == 30 and counts["decapsulationKeyCheck"] == 30


@pytest.mark.parametrize("bits", ["512", "768", "1024"])
def test_wycheproof_seed_and_decapsulation(vectors, bits):
    """Wycheproof: key from the seed d || z gives ek; decapsulation of c gives K; seeds and
    ciphertexts of the wrong length are ValueError."""
    data = load_json(vectors / "wycheproof" / "testvectors_v1" / f"mlkem_{bits}_test.json")
    priv_cls = SETS[f"ML-KEM-{bits}"][0]
    counts = {"valid": 0, "invalid": 0}
    for group in data["testGroups"]:
        for test in group["tests"]:
            counts[test["result"]] += 1
            if test["result"] == "valid":
                key = priv_cls.from_seed_bytes(h(test["seed"]))
                assert key.public_key().public_bytes_raw() == h(test["ek"])
                assert key.decapsulate(h(test["c"])) == h(test["K"])
            else:
                with pytest.raises(ValueError):
                    priv_cls.from_seed_bytes(h(test["seed"])).decapsulate(h(test["c"]))
    assert counts["valid"] > 100 and counts["invalid"] > 10
