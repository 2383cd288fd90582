"""The MQ evaluation core against the Python model of MQDSS's map (random systems)."""

import random

import pytest

from pqlab_hw.core import Variant
from pqlab_hw.cores import mq


@pytest.mark.parametrize("v", mq.variants(), ids=lambda v: v.id)
def test_matches_model(v):
    n, mults = v.params["n"], v.params["mults"]
    count = 1 if v.config == "baseline" else 2
    cycles = mq.check(v, count=count)
    steps = n * (n + 1) // 2 * n // mults * (2 if v.config == "baseline" else 1)
    assert steps <= cycles <= steps + 4


@pytest.mark.parametrize("config,mults", [("baseline", 1), ("unrolled", 3), ("pipelined", 6)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_small_systems(config, mults, seed):
    """Smaller random systems (n = 7, m = 6), several inputs, every configuration."""
    v = Variant(mq.NAME, config, {"n": 7, "m": 6, "mults": mults})
    mq.check(v, count=4, seed=seed)


def test_model_by_definition():
    """The model equals sum over i <= j of F[k][i][j] x_i x_j written out directly."""
    rng = random.Random(4)
    n, m = 5, 3
    system = mq.random_system(n, m, 4)
    x = [rng.randrange(31) for _ in range(n)]
    want = []
    for f in system:
        t, s = 0, 0
        for i in range(n):
            for j in range(i, n):
                s += f[t] * x[i] * x[j]
                t += 1
        want.append(s % 31)
    assert mq.evaluate(system, x) == want


def test_wrong_answer_is_caught(monkeypatch):
    """A model that differs in one output makes the check fail."""
    good = mq.evaluate
    monkeypatch.setattr(mq, "evaluate", lambda s, x: [(good(s, x)[0] + 1) % 31] + good(s, x)[1:])
    with pytest.raises(AssertionError, match="wrong outputs"):
        mq.check(Variant(mq.NAME, "unrolled", {"n": 7, "m": 6, "mults": 3}), count=1)
