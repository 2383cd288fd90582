"""Keccak-f[1600] core (FIPS 202, Algorithm 7: KECCAK-p[1600, 24]).

The state is 25 lanes A[x + 5y] of 64 bits (FIPS 202, Section 3.1.2); one round is
theta, rho, pi, chi, iota (Algorithms 1 to 6). The core's interface is narrow, so that it fits
the pins of a real part: the state is shifted in and out one 64-bit lane a cycle (`din`,
`shift`, `dout` = lane 0; lane 24 takes `din`), then `start` runs the permutation and `done`
rises for one cycle when it has finished.

Configurations:
  baseline   one round a cycle: 24 cycles a permutation, one round of logic on the path.
  unrolled   two rounds a cycle: 12 cycles, twice the logic and twice the depth.
  pipelined  the round cut into two registered halves (theta | rho, pi, chi, iota) with two
             states in flight, interleaved: 50 cycles from start to done for two permutations
             (the state shifted in first comes out second), half a round of logic on the path. The study's loop
             pipelining: a new permutation enters before the previous one has finished.
"""

from __future__ import annotations

import random

from amaranth.hdl import Array, Cat, Const, Elaboratable, Module, Signal, Value
from amaranth.sim import Simulator

from .. import ref
from ..core import Variant

NAME = "keccak-f1600"
CRITICAL_OF = "Dilithium expand_mat (its Keccak-f[1600] permutation)"

MASK64 = (1 << 64) - 1

# FIPS 202, Algorithm 5 (rc) and 6: the 24 round constants of iota.
RC = [
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
]  # fmt: skip


def _rho_offsets() -> list[int]:
    """FIPS 202, Algorithm 2 (rho): the rotation of lane x + 5y, from the (x, y) walk."""
    r = [0] * 25
    x, y = 1, 0
    for t in range(24):
        r[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return r


RHO = _rho_offsets()


def theta(a: list[Value]) -> list[Value]:
    """FIPS 202, Algorithm 1: theta."""
    c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
    d = [c[(x - 1) % 5] ^ c[(x + 1) % 5].rotate_left(1) for x in range(5)]
    return [a[i] ^ d[i % 5] for i in range(25)]


def rho_pi_chi_iota(a: list[Value], rc: Value) -> list[Value]:
    """FIPS 202, Algorithms 2, 3, 4 and 6: rho and pi (B[y, 2x + 3y] = rot(A[x, y], r[x, y])),
    chi (A[x, y] = B[x, y] ^ (~B[x + 1, y] & B[x + 2, y])) and iota (A[0, 0] ^= RC)."""
    b: list[Value | None] = [None] * 25
    for x in range(5):
        for y in range(5):
            b[y + 5 * ((2 * x + 3 * y) % 5)] = a[x + 5 * y].rotate_left(RHO[x + 5 * y])
    out = []
    for y in range(5):
        for x in range(5):
            out.append(b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]))
    out[0] = out[0] ^ rc
    return out


def round_(a: list[Value], rc: Value) -> list[Value]:
    """FIPS 202, Algorithm 7, one round: Rnd(A, ir) = iota(chi(pi(rho(theta(A)))), ir)."""
    return rho_pi_chi_iota(theta(a), rc)


def lanes_of(sig: Signal) -> list[Value]:
    """The 25 lanes of a 1600-bit state signal (lane i = bits 64i .. 64i + 63)."""
    return [sig[64 * i : 64 * i + 64] for i in range(25)]


def rc_table() -> Array:
    """The round constants as a ROM indexed by the round number."""
    return Array(Const(rc, 64) for rc in RC)


class KeccakCore(Elaboratable):
    """Keccak-f[1600] with `rounds_per_cycle` rounds of logic between the state registers
    (baseline 1, unrolled 2). Ports: din, shift, dout, start, busy, done."""

    def __init__(self, rounds_per_cycle: int = 1):
        assert 24 % rounds_per_cycle == 0
        self.rounds_per_cycle = rounds_per_cycle
        self.din = Signal(64)
        self.shift = Signal()
        self.dout = Signal(64)
        self.start = Signal()
        self.busy = Signal()
        self.done = Signal()

    def elaborate(self, platform):
        m = Module()
        k = self.rounds_per_cycle
        steps = 24 // k
        state = Signal(1600)
        step = Signal(range(steps))
        table = rc_table()
        lanes = lanes_of(state)
        m.d.comb += self.dout.eq(lanes[0])
        m.d.sync += self.done.eq(0)

        nxt = lanes
        for r in range(k):
            nxt = round_(nxt, table[step * k + r])
            if r < k - 1:
                # A named wire between the unrolled rounds (the simulator would otherwise
                # inline the first round into every use).
                mid = Signal(1600, name=f"round{r}")
                m.d.comb += mid.eq(_cat(nxt))
                nxt = lanes_of(mid)

        with m.If(self.busy):
            m.d.sync += state.eq(_cat(nxt))
            m.d.sync += step.eq(step + 1)
            with m.If(step == steps - 1):
                m.d.sync += [self.busy.eq(0), self.done.eq(1), step.eq(0)]
        with m.Elif(self.start):
            m.d.sync += [self.busy.eq(1), step.eq(0)]
        with m.Elif(self.shift):
            m.d.sync += state.eq(_cat(lanes[1:] + [self.din]))
        return m


class KeccakPipelined(Elaboratable):
    """Keccak-f[1600] with the round cut in two registered halves and two states in flight.

    Registers `sa` (input of theta) and `sb` (input of rho..iota). The shift chain runs
    din -> sa lane 24 .. sa lane 0 -> sb lane 24 .. sb lane 0 -> dout: of the 50 lanes shifted
    in, the first 25 are state P (in sb), the last 25 state Q (in sa). After `start`, P and Q
    alternate through the two halves; `done` comes 50 cycles after `start` with Q's result in sb
    and P's in sa, so the 50 lanes shifted out are f(Q) then f(P)."""

    def __init__(self):
        self.din = Signal(64)
        self.shift = Signal()
        self.dout = Signal(64)
        self.start = Signal()
        self.busy = Signal()
        self.done = Signal()

    def elaborate(self, platform):
        m = Module()
        sa = Signal(1600)
        sb = Signal(1600)
        t = Signal(range(49))
        table = rc_table()
        la, lb = lanes_of(sa), lanes_of(sb)
        m.d.comb += self.dout.eq(lb[0])
        m.d.sync += self.done.eq(0)
        # The state in sb at edge t (1 <= t <= 48) is in round (t - 1) // 2.
        rc = table[(t - 1)[1:]]
        with m.If(self.busy):
            m.d.sync += t.eq(t + 1)
            with m.If(t == 0):
                # Q goes to theta; P, not yet started, is moved across unchanged.
                m.d.sync += [sb.eq(_cat(theta(la))), sa.eq(sb)]
            with m.Elif(t == 48):
                # P's last round; Q, finished, is moved across unchanged.
                m.d.sync += [sa.eq(_cat(rho_pi_chi_iota(lb, rc))), sb.eq(sa)]
                m.d.sync += [self.busy.eq(0), self.done.eq(1), t.eq(0)]
            with m.Else():
                m.d.sync += [sb.eq(_cat(theta(la))), sa.eq(_cat(rho_pi_chi_iota(lb, rc)))]
        with m.Elif(self.start):
            m.d.sync += [self.busy.eq(1), t.eq(0)]
        with m.Elif(self.shift):
            m.d.sync += [sa.eq(_cat(la[1:] + [self.din])), sb.eq(_cat(lb[1:] + [la[0]]))]
        return m


def _cat(lanes: list[Value]) -> Value:
    return Cat(*lanes)


def variants() -> list[Variant]:
    return [
        Variant(NAME, "baseline", {"rpc": 1}, "1 round/cycle, 24 cycles/permutation"),
        Variant(NAME, "unrolled", {"rpc": 2}, "2 rounds/cycle, 12 cycles/permutation"),
        Variant(
            NAME,
            "pipelined",
            {"stages": 2},
            "round in 2 registered halves, 2 states in flight: 2 permutations in 50 cycles",
        ),
    ]


def build(v: Variant):
    if v.config == "pipelined":
        return KeccakPipelined()
    return KeccakCore(v.params.get("rpc", 1))


def test_states(n: int = 4, seed: int = 2026) -> list[list[int]]:
    """The zero state and n - 1 pseudo-random ones (deterministic)."""
    rnd = random.Random(seed)
    return [[0] * 25] + [[rnd.getrandbits(64) for _ in range(25)] for _ in range(n - 1)]


def simulate(dut, batches: list[list[list[int]]]) -> tuple[list[list[list[int]]], int]:
    """For each batch of states (1 state, or 2 for the pipelined core), in one simulation: shifts
    the states in, runs one permutation and shifts the results out. Returns the lanes read out
    per batch (in the core's output order) and the cycles from `start` to `done`."""
    result: dict = {"out": []}

    async def bench(ctx):
        for states in batches:
            for st in states:
                for lane in st:
                    ctx.set(dut.din, lane)
                    ctx.set(dut.shift, 1)
                    await ctx.tick()
            ctx.set(dut.shift, 0)
            ctx.set(dut.start, 1)
            await ctx.tick()
            ctx.set(dut.start, 0)
            cycles = 1
            while not ctx.get(dut.done):
                await ctx.tick()
                cycles += 1
                assert cycles < 1000, "the core never raised done"
            out = []
            for _ in states:
                lanes = []
                for _ in range(25):
                    lanes.append(ctx.get(dut.dout))
                    ctx.set(dut.shift, 1)
                    await ctx.tick()
                out.append(lanes)
            ctx.set(dut.shift, 0)
            result["out"].append(out)
            result["cycles"] = cycles

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    return result["out"], result["cycles"]


def check(v: Variant) -> int:
    """Permutes several states in simulation and compares them with pqlab_keccak::keccak_f1600
    (crates/pqlab-hwref/src/bin/keccak.rs). Returns the cycles from start to done."""
    states = test_states()
    want = ref.run("keccak", stdin=states)
    assert len(want) == len(states)
    cycles = 0
    if v.config == "pipelined":
        pairs = [(0, 1), (2, 3)]
        outs, cycles = simulate(build(v), [[states[p], states[q]] for p, q in pairs])
        for (p, q), got in zip(pairs, outs):
            # f(Q) comes out first, then f(P).
            assert got[0] == want[q], f"{v.id}: state {q}: wrong permutation"
            assert got[1] == want[p], f"{v.id}: state {p}: wrong permutation"
    else:
        outs, cycles = simulate(build(v), [[st] for st in states])
        for i, (got, w) in enumerate(zip(outs, want)):
            assert got[0] == w, f"{v.id}: state {i}: wrong permutation"
    return cycles
