"""Sparse polynomial multiplier: c * s mod (x^n + 1) with c a +-1 polynomial of weight tau.

Two arithmetic modes share the generator:

* `mod`: ML-DSA's c * s1 (FIPS 204, Algorithm 7, line 17): n = 256, q = 8380417, s in [0, q),
  result in [0, q); tau = 39, 49, 60 (ML-DSA-44/65/87). Checked against pqlab (pqlab-hwref's
  `sparse` binary).
* `int`: qTESLA's `sparse_mul16` (round-2 reference C): int16 s, int32 result, no modulus
  (the product is exact); n = 512, h = 30 (qTESLA-I) and n = 1024, h = 48 (qTESLA-III).
  Checked against a Python transcription of sparse_mul16 (pqlab has no qTESLA).

Architecture: c arrives as its tau positions and signs (a small RAM: SampleInBall's / qTESLA's
pos_list, sign_list); s sits in a RAM of n/P words of P coefficients with two read ports, the
accumulator r in a RAM of n/P words with one read and one write port. For each nonzero
(position p, sign sigma) the unit sweeps the n/P accumulator words: word J needs
s[(J P + l - p) mod n] for its lanes l, a window of P consecutive coefficients that straddles
two s words (read both, select with a barrel shift by (-p) mod P), negated where the index
wrapped (x^n = -1) or sigma = -1, and added into r[J] (read-modify-write). tau * n / P steps.

Configurations:
  baseline  - P = 1, sequential (read, then add and write: 2 cycles per coefficient);
  unrolled  - P = 4 lanes, the next word read while the previous is added and written
              (1 word per cycle, combinational select + add);
  pipelined - P = 4 lanes (and 1 for qTESLA-I), 1 word per cycle with the window select /
              sign and the add in registered stages (shorter clock period).
"""

from __future__ import annotations

import random

from amaranth import Cat, Elaboratable, Module, Mux, Signal, unsigned
from amaranth.lib.memory import Memory

from ..core import Variant
from .. import ref

NAME = "sparse-mul"
CRITICAL_OF = "qTESLA sparse_mul16 (and Dilithium / ML-DSA c*s1): sparse polynomial product"

Q_MLDSA = 8380417


class SparseMul(Elaboratable):
    """Ports: `start` (pulse, with `weight` = number of nonzeros), `done` (pulse), `busy`;
    while idle, `io_addr` with `io_wdata` + `io_we_s` (a word of P coefficients of s) or
    `io_we_pos` (entry io_addr of the nonzero list: position, then the sign bit, 1 = -1), and
    `io_rdata` (word io_addr of the result, one cycle after the address)."""

    def __init__(self, mode: str, n: int, lanes: int, tau_max: int, config: str):
        assert mode in ("mod", "int") and n % lanes == 0
        self.mode, self.n, self.P, self.tau_max, self.config = mode, n, lanes, tau_max, config
        self.ws = 23 if mode == "mod" else 16  # width of an s coefficient
        self.wa = 23 if mode == "mod" else 32  # width of an accumulator coefficient
        self.words = n // lanes
        self.logn = n.bit_length() - 1
        self.pipelined = config == "pipelined"
        self.depth = 3 if self.pipelined else 1
        aw = max((self.words - 1).bit_length(), (tau_max - 1).bit_length())
        self.start = Signal()
        self.weight = Signal(range(tau_max + 1))
        self.done = Signal()
        self.busy = Signal()
        self.io_addr = Signal(aw)
        self.io_wdata = Signal(max(lanes * self.ws, self.logn + 1))
        self.io_we_s = Signal()
        self.io_we_pos = Signal()
        self.io_rdata = Signal(lanes * self.wa)

    def elaborate(self, platform):
        m = Module()
        P, n, ws, wa = self.P, self.n, self.ws, self.wa
        logp = P.bit_length() - 1
        words = self.words
        wbits = max((words - 1).bit_length(), 1)

        m.submodules.s_mem = s_mem = Memory(shape=unsigned(P * ws), depth=words, init=[])
        s_w = s_mem.write_port()
        s_r0, s_r1 = s_mem.read_port(), s_mem.read_port()
        m.submodules.r_mem = r_mem = Memory(shape=unsigned(P * wa), depth=words, init=[])
        r_w = r_mem.write_port()
        r_r = r_mem.read_port()
        m.submodules.pos_mem = pos_mem = Memory(shape=unsigned(self.logn + 1),
                                                depth=self.tau_max, init=[])
        pos_w = pos_mem.write_port()
        pos_r = pos_mem.read_port()
        m.d.comb += [s_w.addr.eq(self.io_addr), s_w.data.eq(self.io_wdata),
                     s_w.en.eq(self.io_we_s & ~self.busy),
                     pos_w.addr.eq(self.io_addr), pos_w.data.eq(self.io_wdata),
                     pos_w.en.eq(self.io_we_pos & ~self.busy)]

        # Control: for each nonzero k, fetch (pos, sign), then sweep J = 0 .. words-1.
        k = Signal(range(self.tau_max + 1))
        weight = Signal.like(self.weight)
        J = Signal(range(words + 1))
        p = Signal(self.logn)
        neg = Signal()
        first = Signal()
        gap = Signal(range(self.depth + 2))
        drain = Signal(range(self.depth + 2))
        issue = Signal()
        m.d.sync += self.done.eq(0)
        m.d.comb += pos_r.addr.eq(k)
        with m.FSM():
            with m.State("IDLE"):
                with m.If(self.start):
                    m.d.sync += [k.eq(0), weight.eq(self.weight), first.eq(1)]
                    m.next = "FETCH"
            with m.State("FETCH"):  # pos_mem[k] is read in this cycle
                m.d.comb += self.busy.eq(1)
                m.next = "LATCH"
            with m.State("LATCH"):
                m.d.comb += self.busy.eq(1)
                m.d.sync += [p.eq(pos_r.data[:self.logn]), neg.eq(pos_r.data[self.logn]),
                             J.eq(0), gap.eq(0)]
                m.next = "SWEEP"
            with m.State("SWEEP"):
                m.d.comb += self.busy.eq(1)
                with m.If(J < words):
                    with m.If(gap == 0):
                        m.d.comb += issue.eq(1)
                        m.d.sync += J.eq(J + 1)
                        if self.config == "baseline":
                            m.d.sync += gap.eq(self.depth)
                    with m.Else():
                        m.d.sync += gap.eq(gap - 1)
                with m.Else():
                    m.d.sync += drain.eq(drain + 1)
                    with m.If(drain == self.depth):  # drained: r fully written
                        m.d.sync += drain.eq(0)
                        m.d.sync += [k.eq(k + 1), first.eq(0)]
                        with m.If(k + 1 == weight):
                            m.d.sync += self.done.eq(1)
                            m.next = "IDLE"
                        with m.Else():
                            m.next = "FETCH"

        # Addresses: s index of lane 0 is d = (J P - p) mod n.
        d = Signal(self.logn)
        m.d.comb += d.eq(J * P - p)
        a0 = Signal(wbits)
        m.d.comb += a0.eq(d >> logp if logp else d)
        m.d.comb += [s_r0.addr.eq(a0), s_r1.addr.eq(a0 + 1)]
        with m.If(self.busy):
            m.d.comb += r_r.addr.eq(J)
        with m.Else():
            m.d.comb += r_r.addr.eq(self.io_addr)
        m.d.comb += self.io_rdata.eq(r_r.data)
        off = Signal(max(logp, 1))
        m.d.comb += off.eq(d[:logp] if logp else 0)
        # Lane l wraps (s index J P + l - p < 0) iff J P + l < p.
        wraps = Signal(P)
        for lane in range(P):
            m.d.comb += wraps[lane].eq(J * P + lane < p)

        ctl = Cat(issue, J[:wbits], off, wraps, neg, first)
        c1 = Signal.like(ctl, name="c1")
        m.d.sync += c1.eq(ctl)
        v1, j1 = c1[0], c1[1:1 + wbits]
        off1 = c1[1 + wbits:1 + wbits + len(off)]
        rest = c1[1 + wbits + len(off):]
        wr1, neg1, first1 = rest[:P], rest[P], rest[P + 1]

        # Stage 1 (read data valid): window select and sign of each lane.
        win = Cat(s_r0.data, s_r1.data)
        lanes_s, subs = [], []
        for lane in range(P):
            sv = Signal(ws, name=f"s{lane}")
            for o in range(P):
                with m.If(off1 == o):
                    m.d.comb += sv.eq(win[(o + lane) * ws:(o + lane + 1) * ws])
            lanes_s.append(sv)
            subs.append(wr1[lane] ^ neg1)
        acc = [Mux(first1, 0, r_r.data[lane * wa:(lane + 1) * wa]) for lane in range(P)]
        st = [Signal(ws, name=f"s{lane}_r") for lane in range(P)]
        sb = [Signal(name=f"sub{lane}_r") for lane in range(P)]
        ac = [Signal(wa, name=f"acc{lane}_r") for lane in range(P)]
        c2 = Signal.like(c1, name="c2")
        dom = m.d.sync if self.pipelined else m.d.comb
        dom += [c2.eq(c1)] + [a.eq(b) for a, b in zip(st, lanes_s)] + \
            [a.eq(b) for a, b in zip(sb, subs)] + [a.eq(b) for a, b in zip(ac, acc)]

        # Stage 2: add or subtract.
        outs = []
        for lane in range(P):
            o = Signal(wa, name=f"o{lane}")
            if self.mode == "mod":
                q = Q_MLDSA
                a = Signal(wa + 1, name=f"add{lane}")
                b = Signal(wa + 1, name=f"sub{lane}")
                m.d.comb += [a.eq(ac[lane] + st[lane]), b.eq(ac[lane] - st[lane])]
                m.d.comb += o.eq(Mux(sb[lane], Mux(b[wa], b + q, b), Mux(a >= q, a - q, a)))
            else:
                sx = st[lane].as_signed()
                m.d.comb += o.eq(Mux(sb[lane], ac[lane] - sx, ac[lane] + sx))
            outs.append(o)
        fin_v, fin_a, fin_d = Signal(), Signal(wbits), Signal(P * wa)
        dom2 = m.d.sync if self.pipelined else m.d.comb
        dom2 += [fin_v.eq(c2[0]), fin_a.eq(c2[1:1 + wbits]), fin_d.eq(Cat(*outs))]
        m.d.comb += [r_w.en.eq(fin_v), r_w.addr.eq(fin_a), r_w.data.eq(fin_d)]
        return m


# Parameter sets: (label, mode, n, tau or h).
SETS = {
    "mldsa44": ("mod", 256, 39),
    "mldsa65": ("mod", 256, 49),
    "mldsa87": ("mod", 256, 60),
    "qtesla1": ("int", 512, 30),
    "qtesla3": ("int", 1024, 48),
}


def variants() -> list[Variant]:
    out = []
    for ps in ("mldsa44", "qtesla1"):
        for config in ("baseline", "unrolled", "pipelined"):
            lanes = 1 if config == "baseline" else 4
            out.append(Variant(NAME, config, {"set": ps, "lanes": lanes},
                               f"{ps}: c*s, weight {SETS[ps][2]}, {lanes} lane(s)"))
    out.append(Variant(NAME, "pipelined", {"set": "qtesla1", "lanes": 1},
                       "qtesla1: c*s, weight 30, 1 lane"))
    out.append(Variant(NAME, "pipelined", {"set": "qtesla3", "lanes": 4},
                       "qtesla3: c*s, weight 48, 4 lanes"))
    return out


def build(v: Variant) -> SparseMul:
    mode, n, tau = SETS[v.params["set"]]
    # The ML-DSA unit takes any weight up to 64 (all three parameter sets).
    return SparseMul(mode, n, v.params["lanes"], 64 if mode == "mod" else tau, v.config)


def sparse_mul16(s: list[int], pos_list: list[int], sign_list: list[int]) -> list[int]:
    """qTESLA's sparse_mul16 (round-2 reference C, sign.c), transcribed: int16 s, int32 prod."""
    n = len(s)
    prod = [0] * n
    for pos, sign in zip(pos_list, sign_list):
        for j in range(pos):
            prod[j] = prod[j] - sign * s[j + n - pos]
        for j in range(pos, n):
            prod[j] = prod[j] + sign * s[j - pos]
    return [((x + 2**31) % 2**32) - 2**31 for x in prod]


def simulate(unit: SparseMul, cases) -> tuple[list[list[int]], int]:
    """cases: (s, positions, signs) with signs in {1, -1}; s in [0, q) (mod) or int16 (int).
    Returns the products (in [0, q), or signed int32) and the cycles of the first (start to
    done)."""
    from amaranth.sim import Simulator

    P, ws, wa = unit.P, unit.ws, unit.wa
    outs, cycles = [], []

    async def bench(ctx):
        for s, pos, signs in cases:
            for a in range(unit.words):
                word = sum((s[a * P + j] % (1 << ws)) << (ws * j) for j in range(P))
                ctx.set(unit.io_addr, a)
                ctx.set(unit.io_wdata, word)
                ctx.set(unit.io_we_s, 1)
                await ctx.tick()
            ctx.set(unit.io_we_s, 0)
            for i, (p, sg) in enumerate(zip(pos, signs)):
                ctx.set(unit.io_addr, i)
                ctx.set(unit.io_wdata, p | ((sg < 0) << unit.logn))
                ctx.set(unit.io_we_pos, 1)
                await ctx.tick()
            ctx.set(unit.io_we_pos, 0)
            ctx.set(unit.weight, len(pos))
            ctx.set(unit.start, 1)
            await ctx.tick()
            ctx.set(unit.start, 0)
            c = 1
            while not ctx.get(unit.done):
                await ctx.tick()
                c += 1
            cycles.append(c)
            res = []
            for a in range(unit.words):
                ctx.set(unit.io_addr, a)
                await ctx.tick()
                word = ctx.get(unit.io_rdata)
                for j in range(P):
                    x = (word >> (wa * j)) & ((1 << wa) - 1)
                    if unit.mode == "int" and x >= 1 << (wa - 1):
                        x -= 1 << wa
                    res.append(x)
            outs.append(res)

    sim = Simulator(unit)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    return outs, cycles[0]


def random_cases(mode: str, n: int, tau: int, count: int, seed: int):
    """SampleInBall's output shape: tau distinct positions, random signs (SampleInBall itself is
    crate-private in pqlab-mldsa, see crates/pqlab-hwref/src/bin/sparse.rs)."""
    rng = random.Random(seed)
    cases = []
    for k in range(count):
        pos = rng.sample(range(n), tau)
        if k == 0:  # the extremes: position 0 and n - 1 among them
            pos[0], pos[-1] = 0, n - 1
            pos = list(dict.fromkeys(pos))
            while len(pos) < tau:
                pos.append(next(x for x in range(n) if x not in pos))
        signs = [rng.choice((1, -1)) for _ in range(tau)]
        if mode == "mod":
            s = [rng.randrange(Q_MLDSA) for _ in range(n)]
        else:
            s = [rng.randrange(-2**15, 2**15) for _ in range(n)]
        if k == 0:
            s[0], s[-1] = (Q_MLDSA - 1, 0) if mode == "mod" else (-2**15, 2**15 - 1)
        cases.append((s, pos, signs))
    return cases


def expected(mode: str, cases) -> list[list[int]]:
    if mode == "int":
        return [sparse_mul16(s, pos, signs) for s, pos, signs in cases]
    lines = []
    for s, pos, signs in cases:
        c = [0] * len(s)
        for p, sg in zip(pos, signs):
            c[p] = sg
        lines += [c, s]
    return ref.run("sparse", stdin=lines)


def check(v: Variant, count: int = 2, seed: int = 3, tau: int | None = None) -> int:
    unit = build(v)
    mode, n, t = SETS[v.params["set"]]
    assert (tau or t) <= unit.tau_max
    cases = random_cases(mode, n, tau or t, count, seed)
    got, cycles = simulate(unit, cases)
    want = expected(mode, cases)
    for k, (g, w) in enumerate(zip(got, want)):
        bad = [i for i in range(n) if g[i] != w[i]]
        assert not bad, (f"{v.id} case {k}: {len(bad)} wrong coefficients, first at {bad[0]}: "
                         f"got {g[bad[0]]}, reference {w[bad[0]]}")
    return cycles
