"""ML-DSA ExpandA's sampler: one entry A_hat[i][j] = RejNTTPoly(rho || j || i) (FIPS 204,
Algorithm 32, line 4; Algorithm 30: RejNTTPoly; Algorithm 14: CoeffFromThreeBytes) behind a
Keccak-f[1600] datapath (the round logic of `keccak.py`).

SHAKE128 absorbs the 34-byte seed in one block (rate 168 bytes), so the absorbed state is a
constant pattern: rho in lanes 0..3, j, i and the SHAKE pad byte 0x1F in lane 4, the final pad
bit 0x80 at byte 167 (top of lane 20). Each squeezed block holds 56 candidates of 3 bytes
(little-endian, top bit cleared: 23 bits), kept when below q = 8380417, until 256.

Ports: `din`/`shift` (rho, four 64-bit words, bytes 0..7 first), `i`, `j`, `start`, `busy`,
`done` (one cycle, when the 256th coefficient has been output), and the coefficient stream
`coeff0`/`valid0`, `coeff1`/`valid1` (in that order within a cycle; `valid1` only in the
unrolled configuration).

Configurations:
  baseline   1 Keccak round a cycle, 1 candidate a cycle, sequential: permute (24 cycles), then
             read the 56 candidates by rotating the rate part of the state 24 bits a cycle (a
             full turn, so the state is intact for the next permutation): ~80 cycles a block.
  unrolled   2 rounds a cycle and 2 candidates a cycle (both of expand_mat's loops unrolled by
             2): ~40 cycles a block.
  pipelined  1 round a cycle, 1 candidate a cycle, the loops overlapped: the 1344-bit rate is
             copied into a buffer that the sampler reads while the permutation of the next block
             runs: ~57 cycles a block (the sampler is the bottleneck).
"""

from __future__ import annotations

import random

from amaranth.hdl import Cat, Const, Elaboratable, Module, Signal
from amaranth.sim import Simulator

from .. import ref
from ..core import Variant
from .keccak import lanes_of, rc_table, round_

NAME = "expanda"
CRITICAL_OF = "Dilithium expand_mat (Keccak + rejection sampling)"

Q = 8380417
RATE_BITS = 1344  # SHAKE128: 168 bytes


class ExpandA(Elaboratable):
    def __init__(self, rounds_per_cycle: int = 1, candidates_per_cycle: int = 1, overlap=False):
        assert rounds_per_cycle in (1, 2) and candidates_per_cycle in (1, 2)
        self.rpc = rounds_per_cycle
        self.cpc = candidates_per_cycle
        self.overlap = overlap
        self.din = Signal(64)
        self.shift = Signal()
        self.i = Signal(8)
        self.j = Signal(8)
        self.start = Signal()
        self.busy = Signal()
        self.done = Signal()
        self.coeff0 = Signal(23)
        self.valid0 = Signal()
        self.coeff1 = Signal(23)
        self.valid1 = Signal()

    def elaborate(self, platform):
        m = Module()
        k, w = self.rpc, self.cpc
        steps, reads = 24 // k, 56 // w
        rho = Signal(256)
        state = Signal(1600)
        step = Signal(range(steps))
        sidx = Signal(range(reads))
        count = Signal(range(257))
        perm = Signal()
        samp = Signal()
        table = rc_table()
        m.d.sync += self.done.eq(0)
        busy = perm | samp
        m.d.comb += self.busy.eq(busy)

        with m.If(self.shift & ~self.busy):
            m.d.sync += rho.eq(Cat(rho[64:], self.din))

        # The Keccak datapath: k rounds of logic.
        nxt = lanes_of(state)
        for r in range(k):
            nxt = round_(nxt, table[step * k + r])
            if r < k - 1:
                mid = Signal(1600, name=f"round{r}")
                m.d.comb += mid.eq(Cat(*nxt))
                nxt = lanes_of(mid)
        permuted = Cat(*nxt)

        # The sampler reads the rate part of the state (sequential) or its buffer (overlapped).
        if self.overlap:
            buf = Signal(RATE_BITS)
            fresh = Signal()
            source = buf
            m.d.comb += self.busy.eq(busy | fresh)
        else:
            source = state[:RATE_BITS]
        cand = [source[24 * n : 24 * n + 23] for n in range(w)]
        acc = [c < Q for c in cand]
        m.d.comb += [self.coeff0.eq(cand[0]), self.valid0.eq(samp & acc[0])]
        if w == 2:
            m.d.comb += [
                self.coeff1.eq(cand[1]),
                self.valid1.eq(samp & acc[1] & ((count + acc[0]) < 256)),
            ]
        taken = Signal(range(3))
        m.d.comb += taken.eq(self.valid0 + self.valid1)
        finished = (count + taken) >= 256

        # The absorbed block: SHAKE128(rho || j || i) with the pad 0x1F .. 0x80.
        init = Cat(rho, self.j, self.i, Const(0x1F, 8), Const(0, RATE_BITS - 1 - 280), Const(1, 1))

        with m.If(perm):
            m.d.sync += [state.eq(permuted), step.eq(step + 1)]
            with m.If(step == steps - 1):
                m.d.sync += [perm.eq(0), step.eq(0)]
                if self.overlap:
                    m.d.sync += fresh.eq(1)
                else:
                    m.d.sync += [samp.eq(1), sidx.eq(0)]
        if self.overlap:
            with m.If(fresh & ~samp):
                m.d.sync += [buf.eq(state[:RATE_BITS]), fresh.eq(0), samp.eq(1), sidx.eq(0)]
                m.d.sync += [perm.eq(1), step.eq(0)]
        with m.If(samp):
            m.d.sync += [count.eq(count + taken), sidx.eq(sidx + 1)]
            if self.overlap:
                m.d.sync += buf.eq(buf >> (24 * w))
            else:
                m.d.sync += state[:RATE_BITS].eq(source.rotate_right(24 * w))
            with m.If(finished):
                m.d.sync += [samp.eq(0), perm.eq(0), self.done.eq(1)]
                if self.overlap:
                    m.d.sync += fresh.eq(0)
            with m.Elif(sidx == reads - 1):
                m.d.sync += samp.eq(0)
                if not self.overlap:
                    m.d.sync += [perm.eq(1), step.eq(0)]
        with m.If(self.start & ~self.busy):
            m.d.sync += [state.eq(init), perm.eq(1), step.eq(0), count.eq(0)]
        return m


def variants() -> list[Variant]:
    return [
        Variant(NAME, "baseline", {"rpc": 1, "cpc": 1}, "1 round/cycle, 1 candidate/cycle"),
        Variant(NAME, "unrolled", {"rpc": 2, "cpc": 2}, "2 rounds/cycle, 2 candidates/cycle"),
        Variant(
            NAME,
            "pipelined",
            {"rpc": 1, "cpc": 1},
            "1 round/cycle, 1 candidate/cycle, next permutation overlapped with sampling",
        ),
    ]


def build(v: Variant):
    return ExpandA(v.params["rpc"], v.params["cpc"], overlap=v.config == "pipelined")


def test_requests(seed: int = 204) -> list[list[int]]:
    """A few (rho, i, j): rho = 0..31 at (0, 0), and random rhos at (3, 2) and (7, 6)."""
    rnd = random.Random(seed)
    reqs = [list(range(32)) + [0, 0]]
    for i, j in [(3, 2), (7, 6)]:
        reqs.append([rnd.getrandbits(8) for _ in range(32)] + [i, j])
    return reqs


def simulate(dut: ExpandA, reqs: list[list[int]]) -> tuple[list[list[int]], list[int]]:
    """Samples each request (rho bytes, i, j) in one simulation. Returns the coefficients output
    per request and the cycles from `start` to `done` of each."""
    polys: list[list[int]] = []
    cycles: list[int] = []

    async def bench(ctx):
        for req in reqs:
            rho, i, j = req[:32], req[32], req[33]
            for wd in range(4):
                ctx.set(dut.din, int.from_bytes(bytes(rho[8 * wd : 8 * wd + 8]), "little"))
                ctx.set(dut.shift, 1)
                await ctx.tick()
            ctx.set(dut.shift, 0)
            ctx.set(dut.i, i)
            ctx.set(dut.j, j)
            ctx.set(dut.start, 1)
            await ctx.tick()
            ctx.set(dut.start, 0)
            n, out = 1, []
            while not ctx.get(dut.done):
                if ctx.get(dut.valid0):
                    out.append(ctx.get(dut.coeff0))
                if ctx.get(dut.valid1):
                    out.append(ctx.get(dut.coeff1))
                await ctx.tick()
                n += 1
                assert n < 5000, "the core never raised done"
            polys.append(out)
            cycles.append(n)

    sim = Simulator(dut)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    return polys, cycles


def check(v: Variant) -> int:
    """Samples A_hat[i][j] for a few (rho, i, j) and compares them with RejNTTPoly over
    pqlab_keccak's SHAKE128 (crates/pqlab-hwref/src/bin/expanda.rs). Returns the mean cycles per
    polynomial (start to done)."""
    reqs = test_requests()
    want = ref.run("expanda", stdin=reqs)
    polys, cycles = simulate(build(v), reqs)
    for n, req in enumerate(reqs):
        assert polys[n] == want[2 * n], f"{v.id}: A_hat[{req[32]}][{req[33]}]: wrong coefficients"
    return round(sum(cycles) / len(cycles))
