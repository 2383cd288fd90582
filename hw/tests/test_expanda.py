"""The ExpandA sampler against RejNTTPoly over pqlab_keccak's SHAKE128 (FIPS 204, Algorithm 30;
crates/pqlab-hwref expanda)."""

import pytest

from pqlab_hw import ref
from pqlab_hw.cores import expanda, keccak

# Cycles per polynomial, mean of the three requests of expanda.test_requests().
CYCLES = {"baseline": (300, 450), "unrolled": (150, 230), "pipelined": (230, 340)}


@pytest.mark.parametrize("v", expanda.variants(), ids=lambda v: v.id)
def test_polynomials_match_pqlab(v):
    lo, hi = CYCLES[v.config]
    assert lo <= expanda.check(v) <= hi


def test_reference_shape():
    out = ref.run("expanda", stdin=expanda.test_requests()[:1])
    assert len(out[0]) == 256 and all(0 <= c < expanda.Q for c in out[0])
    assert out[1][0] >= 2  # 256 coefficients need at least two 168-byte blocks


def test_seed_order_matters():
    # rho || j || i: swapping i and j changes the entry, so the core's byte order is checked.
    req = expanda.test_requests()[1]
    swapped = req[:32] + [req[33], req[32]]
    a, b = ref.run("expanda", stdin=[req, swapped])[0::2]
    assert a != b


@pytest.mark.parametrize("config", ["baseline", "unrolled", "pipelined"])
def test_wrong_round_constant_fails(monkeypatch, config):
    wrong = list(keccak.RC)
    wrong[23] ^= 1
    monkeypatch.setattr(keccak, "RC", wrong)
    v = next(v for v in expanda.variants() if v.config == config)
    with pytest.raises(AssertionError, match="wrong coefficients"):
        expanda.check(v)


def test_wrong_bound_fails(monkeypatch):
    monkeypatch.setattr(expanda, "Q", 1 << 22)
    with pytest.raises(AssertionError, match="wrong coefficients"):
        expanda.check(expanda.variants()[0])
