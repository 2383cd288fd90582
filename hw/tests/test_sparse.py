"""The sparse multiplier against pqlab's c*s1 (ML-DSA) and a model of qTESLA's sparse_mul16."""

import random

import pytest

from pqlab_hw.cores import sparse
from pqlab_hw.core import Variant


@pytest.mark.parametrize("v", sparse.variants(), ids=lambda v: v.id)
def test_matches_reference(v):
    cycles = sparse.check(v)
    unit = sparse.build(v)
    unit._MustUse__silence = True  # built for its sizes only
    tau = sparse.SETS[v.params["set"]][2]
    per = 2 if v.config == "baseline" else 1
    steps = tau * unit.words * per
    assert steps <= cycles <= steps + tau * (unit.depth + 4) + 2


@pytest.mark.parametrize("ps", ["mldsa65", "mldsa87"])
def test_mldsa_weights(ps):
    """The same ML-DSA unit for tau = 49 and 60 (ML-DSA-65 and -87)."""
    v = Variant(sparse.NAME, "unrolled", {"set": ps, "lanes": 4})
    assert sparse.check(v, count=1, seed=11) > 0


def test_sparse_mul16_model_is_negacyclic_product():
    """The qTESLA model equals the schoolbook product mod x^n + 1 (the model is right)."""
    rng = random.Random(5)
    n = 64
    s = [rng.randrange(-2**15, 2**15) for _ in range(n)]
    pos = rng.sample(range(n), 9)
    signs = [rng.choice((1, -1)) for _ in pos]
    c = [0] * n
    for p, sg in zip(pos, signs):
        c[p] = sg
    want = [0] * n
    for i in range(n):
        for j in range(n):
            if i + j < n:
                want[i + j] += c[i] * s[j]
            else:
                want[i + j - n] -= c[i] * s[j]
    assert sparse.sparse_mul16(s, pos, signs) == want


def test_wrong_answer_is_caught(monkeypatch):
    """A reference that differs in one sign makes the check fail."""
    good = sparse.expected

    def flipped(mode, cases):
        s, pos, signs = cases[0]
        return good(mode, [(s, pos, [-signs[0]] + signs[1:])] + list(cases[1:]))

    monkeypatch.setattr(sparse, "expected", flipped)
    with pytest.raises(AssertionError, match="wrong coefficients"):
        sparse.check(sparse.variants()[1], count=1)
