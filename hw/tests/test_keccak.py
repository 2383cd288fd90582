"""The Keccak-f[1600] core against pqlab_keccak::keccak_f1600 (crates/pqlab-hwref keccak)."""

import pytest

from pqlab_hw import ref
from pqlab_hw.cores import keccak

CYCLES = {"baseline": 25, "unrolled": 13, "pipelined": 50}


@pytest.mark.parametrize("v", keccak.variants(), ids=lambda v: v.id)
def test_permutation_matches_pqlab(v):
    assert keccak.check(v) == CYCLES[v.config]


def test_reference_known_answer():
    # Keccak-f[1600] of the zero state, lane 0 (the Keccak team's known answer).
    assert ref.run("keccak", stdin=[[0] * 25])[0][0] == 0xF1258F7940E1DDE7


def test_rho_offsets():
    assert keccak.RHO[:5] == [0, 1, 62, 28, 27]


@pytest.mark.parametrize("config", ["baseline", "unrolled", "pipelined"])
def test_wrong_round_constant_fails(monkeypatch, config):
    wrong = list(keccak.RC)
    wrong[7] ^= 1 << 3
    monkeypatch.setattr(keccak, "RC", wrong)
    v = next(v for v in keccak.variants() if v.config == config)
    with pytest.raises(AssertionError, match="wrong permutation"):
        keccak.check(v)
