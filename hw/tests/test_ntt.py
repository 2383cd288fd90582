"""The NTT unit against pqlab's NTTs (pqlab-hwref's `ntt` binary), every variant."""

import pytest

from pqlab_hw.cores import ntt


@pytest.mark.parametrize("v", ntt.variants(), ids=lambda v: v.id)
def test_matches_pqlab(v):
    cycles = ntt.check(v)
    unit = ntt.build(v)
    unit._MustUse__silence = True  # built for its sizes only
    groups = unit.layers * unit.n // (2 * unit.B)
    # Latency: one group per cycle (two in the baseline) plus the drains between layers.
    per = 2 if v.config == "baseline" else 1
    assert groups * per <= cycles <= groups * per + unit.layers * (unit.depth + 2) + 2


@pytest.mark.parametrize("scheme", sorted(ntt.SCHEMES))
@pytest.mark.parametrize("inverse", [False, True])
def test_model_matches_pqlab(scheme, inverse):
    """The constant-geometry schedule itself (Python model of the unit) equals pqlab."""
    import random

    from pqlab_hw import ref

    p = ntt.SCHEMES[scheme]
    rng = random.Random(7)
    polys = [[rng.randrange(p["q"]) for _ in range(p["n"])] for _ in range(3)]
    want = ref.run("ntt", scheme, "inv" if inverse else "fwd", stdin=polys)
    assert [ntt.model(scheme, a, inverse) for a in polys] == want


def test_every_modulus_has_every_configuration():
    """q = 8380417, 3329 and 12289 each in the three configurations with 1, 2 and 4 butterflies."""
    have = {(v.params["q"], v.config, v.params["bf"]) for v in ntt.variants()}
    want = {(q, c, b) for q in (8380417, 3329, 12289) for c in ("baseline", "unrolled", "pipelined")
            for b in (1, 2, 4)}
    assert have == want


_BROKEN = [v for v in ntt.variants() if v.params["bf"] == 4 and v.config == "pipelined"]


@pytest.mark.parametrize("v", [ntt.variants()[0]] + _BROKEN, ids=lambda v: v.id)
def test_broken_twiddle_is_caught(monkeypatch, v):
    """A wrong twiddle in the ROM makes the check fail (the test bench can see a wrong answer),
    for each modulus and for 4 butterflies (the lane selects of the first layers)."""
    good = ntt.tables

    def broken(scheme):
        fwd, inv, scale = good(scheme)
        fwd = list(fwd)
        fwd[5] = (fwd[5] + 1) % ntt.SCHEMES[scheme]["q"]
        return fwd, inv, scale

    monkeypatch.setattr(ntt, "tables", broken)
    with pytest.raises(AssertionError, match="wrong coefficients"):
        ntt.check(v, count=1)


def test_broken_scaling_is_caught(monkeypatch):
    """A wrong final scale of the inverse (forward still right) makes the check fail."""
    good = ntt.tables

    def broken(scheme):
        fwd, inv, scale = good(scheme)
        return fwd, inv, (scale + 1) % ntt.SCHEMES[scheme]["q"]

    monkeypatch.setattr(ntt, "tables", broken)
    v = next(v for v in ntt.variants() if v.params["q"] == 3329 and v.params["bf"] == 2)
    with pytest.raises(AssertionError, match="inv poly 0: .* wrong coefficients"):
        ntt.check(v, count=1)
