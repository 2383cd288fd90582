"""MQ evaluation core over GF(31): MQDSS's critical function.

F(x) = (f_0(x), ..., f_{m-1}(x)), f_k(x) = sum_{i <= j} F[k][t(i, j)] x_i x_j mod 31, the
homogeneous quadratic map of MQDSS (the reference's `MQ(fx, x, F)`, F_LEN = m n (n + 1) / 2
coefficients; MQDSS-31-48: n = m = 48, 1176 monomials per polynomial). Monomials t are
numbered i outer, j = i .. n-1 inner (the order the reference builds x_i x_j in). Checked against
a Python model on random systems (pqlab has no MQDSS).

Architecture: x in registers (n x 5 bits); the system in a RAM (a BRAM: m n (n+1)/2 x 5 bits
= 282 Kbit for MQDSS-31-48) of words of M coefficients, address t (m/M) + g holding
F[g M .. g M + M - 1][t]; for each monomial t the unit computes x_i x_j mod 31 once and
multiplies it with M coefficients per cycle (M parallel 5 x 5-bit multipliers, each
reduced mod 31 = 2^5 - 1 by folding), accumulating into m 16-bit accumulators (at most
1176 * 30 < 2^16, so no reduction per step); the outputs are reduced once, on the read port.
Latency: n (n + 1) / 2 * m / M steps.

Configurations (M = parallel multipliers):
  baseline  - M = 1, sequential (read, then multiply and accumulate: 2 cycles per step);
  unrolled  - M = 4, 16 or 48, the next coefficient word read while the previous is multiplied
              and accumulated (1 step per cycle, combinational monomial + product + add);
  pipelined - M = 1, 16 or 48, 1 step per cycle with the monomial x_i x_j and the M
              products in registered stages (shorter clock period).
"""

from __future__ import annotations

import random

from amaranth import Array, Cat, Elaboratable, Module, Signal, unsigned
from amaranth.lib.memory import Memory

from ..core import Variant

NAME = "mq-gf31"
CRITICAL_OF = "MQDSS MQ evaluation (the multivariate quadratic map over GF(31))"

P = 31


def mod31(m: Module, v, name: str) -> Signal:
    """v mod 31 by folding (2^5 = 1 mod 31), then at most two subtractions; a new signal."""
    width = len(v)
    cur = v
    k = 0
    while width > 6:
        nxt = Signal(max(width - 5, 5) + 1, name=f"{name}_f{k}")
        m.d.comb += nxt.eq(cur[5:] + cur[:5])
        cur, width, k = nxt, len(nxt), k + 1
    out = Signal(5, name=name)
    m.d.comb += out.eq(cur)
    with m.If(cur >= 2 * P):
        m.d.comb += out.eq(cur - 2 * P)
    with m.Elif(cur >= P):
        m.d.comb += out.eq(cur - P)
    return out


def monomials(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i, n)]


def evaluate(system: list[list[int]], x: list[int]) -> list[int]:
    """The model: system[k][t] is the coefficient of monomial t of f_k."""
    mono = [x[i] * x[j] % P for i, j in monomials(len(x))]
    return [sum(c * v for c, v in zip(f, mono)) % P for f in system]


def random_system(n: int, m: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [[rng.randrange(P) for _ in range(n * (n + 1) // 2)] for _ in range(m)]


class MqEval(Elaboratable):
    """Ports: `start` (pulse), `done` (pulse), `busy`; while idle `io_addr` + `io_wdata` +
    `io_we_x` (variable x_i), `io_we_f` (a coefficient word at RAM address io_addr), and
    `io_rdata` = f_{io_addr}(x) (combinational, from the accumulators)."""

    def __init__(self, n: int, m: int, mults: int, config: str, system=None):
        assert m % mults == 0
        self.n, self.m, self.M, self.config = n, m, mults, config
        self.terms = n * (n + 1) // 2
        self.groups = m // mults
        self.words = self.terms * self.groups
        self.pipelined = config == "pipelined"
        self.system = system if system is not None else random_system(n, m, 2024)
        self.start = Signal()
        self.done = Signal()
        self.busy = Signal()
        self.io_addr = Signal(max((self.words - 1).bit_length(), (max(n, m) - 1).bit_length()))
        self.io_wdata = Signal(5 * mults)
        self.io_we_x = Signal()
        self.io_we_f = Signal()
        self.io_rdata = Signal(5)

    def elaborate(self, platform):
        m = Module()
        n, M, G = self.n, self.M, self.groups
        init = []
        for t in range(self.terms):
            for g in range(G):
                init.append(sum(self.system[g * M + l][t] << (5 * l) for l in range(M)))
        m.submodules.f_mem = f_mem = Memory(shape=unsigned(5 * M), depth=self.words, init=init)
        f_w, f_r = f_mem.write_port(), f_mem.read_port()
        m.d.comb += [f_w.addr.eq(self.io_addr), f_w.data.eq(self.io_wdata),
                     f_w.en.eq(self.io_we_f & ~self.busy)]

        x = Array(Signal(5, name=f"x{i}") for i in range(n))
        acc = Array(Signal(16, name=f"acc{k}") for k in range(self.m))
        with m.If(self.io_we_x & ~self.busy):
            m.d.sync += x[self.io_addr].eq(self.io_wdata[:5])
        rd = Signal(16)
        m.d.comb += rd.eq(acc[self.io_addr])
        m.d.comb += self.io_rdata.eq(mod31(m, rd, "out"))

        # Control: monomial (i, j), group g, word address.
        i = Signal(range(n))
        j = Signal(range(n))
        g = Signal(range(G))
        addr = Signal.like(f_r.addr)
        running = Signal()
        gap = Signal()
        issue = Signal()
        drain = Signal(range(4))
        m.d.comb += [self.busy.eq(running), f_r.addr.eq(addr)]
        m.d.sync += self.done.eq(0)
        depth = 2 if self.pipelined else 1
        end = Signal()
        with m.If(~running):
            with m.If(self.start):
                m.d.sync += [running.eq(1), i.eq(0), j.eq(0), g.eq(0), addr.eq(0), end.eq(0),
                             gap.eq(0), drain.eq(0)]
                m.d.sync += [a.eq(0) for a in acc]
        with m.Elif(~end):
            with m.If(gap):
                m.d.sync += gap.eq(0)
            with m.Else():
                m.d.comb += issue.eq(1)
                if self.config == "baseline":
                    m.d.sync += gap.eq(1)
                m.d.sync += addr.eq(addr + 1)
                with m.If(g == G - 1):
                    m.d.sync += g.eq(0)
                    with m.If(j == n - 1):
                        with m.If(i == n - 1):
                            m.d.sync += end.eq(1)
                        m.d.sync += [i.eq(i + 1), j.eq(i + 1)]
                    with m.Else():
                        m.d.sync += j.eq(j + 1)
                with m.Else():
                    m.d.sync += g.eq(g + 1)
        with m.Else():
            m.d.sync += drain.eq(drain + 1)
            with m.If(drain == depth):
                m.d.sync += [running.eq(0), self.done.eq(1)]

        # Monomial x_i x_j mod 31: in the issue cycle (registered) when pipelined, else in the
        # data cycle from the registered indices.
        v1, g1 = Signal(), Signal.like(g)
        m.d.sync += [v1.eq(issue), g1.eq(g)]
        mono = Signal(5)
        if self.pipelined:
            mono0 = mod31(m, x[i] * x[j], "mono0")
            m.d.sync += mono.eq(mono0)
        else:
            i1, j1 = Signal.like(i), Signal.like(j)
            m.d.sync += [i1.eq(i), j1.eq(j)]
            m.d.comb += mono.eq(mod31(m, x[i1] * x[j1], "mono"))
        # Products: M multipliers.
        prods = []
        for lane in range(M):
            pr = mod31(m, f_r.data[5 * lane:5 * lane + 5] * mono, f"prod{lane}")
            if self.pipelined:
                r = Signal(5, name=f"prod{lane}_r")
                m.d.sync += r.eq(pr)
                pr = r
            prods.append(pr)
        va, ga = v1, g1
        if self.pipelined:
            va, ga = Signal(), Signal.like(g)
            m.d.sync += [va.eq(v1), ga.eq(g1)]
        with m.If(va):
            for gg in range(G):
                with m.If(ga == gg):
                    for lane in range(M):
                        k = gg * M + lane
                        m.d.sync += acc[k].eq(acc[k] + prods[lane])
        return m


def variants() -> list[Variant]:
    out = [Variant(NAME, "baseline", {"n": 48, "mults": 1}, "MQDSS-31-48, 1 multiplier")]
    for mults in (4, 16, 48):
        out.append(Variant(NAME, "unrolled", {"n": 48, "mults": mults},
                           f"MQDSS-31-48, {mults} multipliers"))
    for mults in (1, 16, 48):
        out.append(Variant(NAME, "pipelined", {"n": 48, "mults": mults},
                           f"MQDSS-31-48, {mults} multipliers"))
    return out


def build(v: Variant, system=None) -> MqEval:
    n = v.params["n"]
    return MqEval(n, v.params.get("m", n), v.params["mults"], v.config, system)


def simulate(unit: MqEval, xs: list[list[int]]) -> tuple[list[list[int]], int]:
    from amaranth.sim import Simulator

    outs, cycles = [], []

    async def bench(ctx):
        for x in xs:
            for i, xi in enumerate(x):
                ctx.set(unit.io_addr, i)
                ctx.set(unit.io_wdata, xi)
                ctx.set(unit.io_we_x, 1)
                await ctx.tick()
            ctx.set(unit.io_we_x, 0)
            ctx.set(unit.start, 1)
            await ctx.tick()
            ctx.set(unit.start, 0)
            c = 1
            while not ctx.get(unit.done):
                await ctx.tick()
                c += 1
            cycles.append(c)
            res = []
            for k in range(unit.m):
                ctx.set(unit.io_addr, k)
                res.append(ctx.get(unit.io_rdata))
            outs.append(res)

    sim = Simulator(unit)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    return outs, cycles[0]


def check(v: Variant, count: int = 2, seed: int = 9) -> int:
    """Random systems and inputs (x = (30, ..., 30) first) against the model."""
    n = v.params["n"]
    mm = v.params.get("m", n)
    rng = random.Random(seed)
    system = random_system(n, mm, seed)
    unit = build(v, system)
    xs = [[P - 1] * n] + [[rng.randrange(P) for _ in range(n)] for _ in range(count - 1)]
    got, cycles = simulate(unit, xs)
    for k, x in enumerate(xs):
        want = evaluate(system, x)
        bad = [i for i in range(mm) if got[k][i] != want[i]]
        assert not bad, (f"{v.id} input {k}: {len(bad)} wrong outputs, first f_{bad[0]}: "
                         f"got {got[k][bad[0]]}, model {want[bad[0]]}")
    return cycles
