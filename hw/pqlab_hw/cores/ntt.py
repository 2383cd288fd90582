"""NTT / inverse-NTT unit for q = 8380417 (ML-DSA), 3329 (ML-KEM) and 12289 (Falcon).

Architecture (one generator for the three moduli):

* Constant-geometry data flow (Pease): every forward layer has butterfly i read physical
  positions i and i + m/2 and write 2i and 2i + 1 (the inverse the other way round), so each
  layer reads two whole memory words and writes two whole words per group of B butterflies,
  whatever the layer. The coefficients live in two ping-pong RAMs (source, destination; roles
  swap after every layer) of n/B words of B coefficients, each with two read/write ports whose
  address is shared by the read and the write (the pattern Yosys maps to a true-dual-port BRAM).
  After all log2(m) layers the data is back in natural order: the result is in pqlab's
  coefficient order (the in-place transform's bit-reversed order) with no reordering pass.
* ML-KEM's incomplete 7-layer NTT is two independent 128-point transforms (of the even and of
  the odd coefficients, same twiddles): the RAM holds the even half in words [0, 128/B) and the
  odd half above (`layout`), a fixed wire permutation of the load/unload address.
* Twiddles: one ROM (a Memory with `init`; BRAM) of m forward then m inverse twiddles,
  w[2^s + b] for layer s and block b, B per word: group i0 of layer s reads entry
  2^s + (i0 mod 2^s) onwards (one word; for the first log2(B) layers a lane mux picks inside
  word 0).
* Modular multiplication: Montgomery with R = 2^w, w = bit length of q, twiddles stored as
  w * R mod q, so mont(x * wR) = x w mod q; complete reduction (outputs in [0, q)).
* The inverse ends with a scaling pass (B multiplications per cycle) by pqlab's final factor:
  2^32/256 (ML-DSA's inv_ntt_to_mont), 2^16/128 (ML-KEM's), 1/512 (Falcon's intt).

Configurations (`B` = butterflies, 1, 2 or 4, in each):
  baseline  - sequential: a group is read, then computed and written (2 cycles per group);
  unrolled  - the loop flattened: the next group is read while the previous is computed and
              written (1 group per cycle, one long combinational multiply-reduce path);
  pipelined - 1 group per cycle with the datapath cut into registered stages (product,
              Montgomery quotient, Montgomery result + add/sub): a shorter clock period.
"""

from __future__ import annotations

import random

from amaranth import Cat, Const, Elaboratable, Module, Mux, Signal, unsigned
from amaranth.lib.memory import Memory

from ..core import Variant
from .. import ref

NAME = "ntt"
CRITICAL_OF = "Dilithium / Kyber / Falcon NTT and inverse NTT (polynomial arithmetic)"


def _brv(k: int, bits: int) -> int:
    return int(f"{k:0{bits}b}"[::-1], 2) if bits else 0


def _falcon_psi(q: int = 12289) -> int:
    g = 2
    while pow(g, (q - 1) // 2, q) == 1 or pow(g, (q - 1) // 3, q) == 1:
        g += 1
    return pow(g, (q - 1) // 2048, q)


# Per scheme: modulus, length, number of independent sub-transforms, and pqlab's twiddle tables
# (plain values) as functions of the sub-transform length m.
SCHEMES = {
    "mldsa": dict(q=8380417, n=256, nsub=1),
    "mlkem": dict(q=3329, n=256, nsub=2),
    "falcon": dict(q=12289, n=512, nsub=1),
}


def tables(scheme: str) -> tuple[list[int], list[int], int]:
    """(forward twiddles, inverse twiddles, final scale), plain values mod q, indexed 2^s + b.

    Forward layer s, block b multiplies by fwd[2^s + b] (Cooley-Tukey: x + w y, x - w y); inverse
    layer s, block b by inv[2^s + b] (Gentleman-Sande: x + y, w (x - y)), as pqlab does:
    ML-DSA zetas[k] = 1753^BitRev8(k) (FIPS 204, Algorithm 41), inverse -zetas[2^(s+1) - 1 - b]
    (Algorithm 42); ML-KEM 17^BitRev7(k) (FIPS 203, Algorithms 9 and 10); Falcon
    psi^BitRev10(k) and psi^-BitRev10(k).
    """
    p = SCHEMES[scheme]
    q, m = p["q"], p["n"] // p["nsub"]
    fwd, inv = [0] * m, [0] * m
    if scheme in ("mldsa", "mlkem"):
        zeta, bits = (1753, 8) if scheme == "mldsa" else (17, 7)
        z = [pow(zeta, _brv(k, bits), q) for k in range(m)]
        layers = m.bit_length() - 1
        for s in range(layers):
            for b in range(1 << s):
                fwd[(1 << s) + b] = z[(1 << s) + b]
                inv[(1 << s) + b] = (-z[(1 << (s + 1)) - 1 - b]) % q
        scale = (pow(2, 32 if scheme == "mldsa" else 16, q) * pow(m, -1, q)) % q
    else:
        psi = _falcon_psi(q)
        for k in range(m):
            fwd[k] = pow(psi, _brv(k, 10), q)
            inv[k] = pow(fwd[k], -1, q)
        scale = pow(p["n"], -1, q)
    return fwd, inv, scale


def layout(scheme: str, logical: int) -> int:
    """Physical RAM position of logical coefficient `logical` (pqlab's index)."""
    p = SCHEMES[scheme]
    m = p["n"] // p["nsub"]
    return (logical % p["nsub"]) * m + logical // p["nsub"]


def model(scheme: str, a: list[int], inverse: bool) -> list[int]:
    """The unit's algorithm in Python (constant geometry), for debugging the RTL."""
    p = SCHEMES[scheme]
    q, n, nsub = p["q"], p["n"], p["nsub"]
    m, layers = n // nsub, (n // nsub).bit_length() - 1
    fwd, inv, scale = tables(scheme)
    ph = [0] * n
    for i, x in enumerate(a):
        ph[layout(scheme, i)] = x
    order = range(layers - 1, -1, -1) if inverse else range(layers)
    for s in order:
        nxt = [0] * n
        for e in range(nsub):
            base = e * m
            for i in range(m // 2):
                msk = (1 << s) - 1
                if inverse:
                    w = inv[(1 << s) + (i & msk)]
                    x, y = ph[base + 2 * i], ph[base + 2 * i + 1]
                    nxt[base + i], nxt[base + i + m // 2] = (x + y) % q, w * (x - y) % q
                else:
                    w = fwd[(1 << s) + (i & msk)]
                    x, y = ph[base + i], ph[base + i + m // 2]
                    t = w * y % q
                    nxt[base + 2 * i], nxt[base + 2 * i + 1] = (x + t) % q, (x - t) % q
        ph = nxt
    if inverse:
        ph = [x * scale % q for x in ph]
    return [ph[layout(scheme, i)] for i in range(n)]


class NttUnit(Elaboratable):
    """The NTT unit. Ports: `start` (pulse; `inverse` chooses the direction), `busy`, `done`
    (one-cycle pulse); and, while idle, a word port onto the coefficient RAM: `io_addr`,
    `io_wdata`/`io_we` (load, into the RAM the transform starts from) and `io_rdata` (the word
    at `io_addr` of the RAM holding the result, one cycle after the address)."""

    def __init__(self, scheme: str, butterflies: int, config: str):
        p = SCHEMES[scheme]
        self.scheme, self.config = scheme, config
        self.q, self.n, self.nsub = p["q"], p["n"], p["nsub"]
        self.B = butterflies
        self.m = self.n // self.nsub
        self.layers = self.m.bit_length() - 1
        self.w = self.q.bit_length()
        self.words = self.n // self.B
        assert self.m // 2 >= self.B and self.B in (1, 2, 4)
        self.pipelined = config == "pipelined"
        # Cycles from issuing a group's read to its write cycle.
        self.depth = 4 if self.pipelined else 1
        aw = (self.words - 1).bit_length()
        self.start = Signal()
        self.inverse = Signal()
        self.busy = Signal()
        self.done = Signal()
        self.io_addr = Signal(aw)
        self.io_wdata = Signal(self.B * self.w)
        self.io_we = Signal()
        self.io_rdata = Signal(self.B * self.w)

    # Montgomery arithmetic -------------------------------------------------------------
    def _reg(self, m, sig, name):
        """`sig` registered in the pipelined configuration, passed through otherwise."""
        if not self.pipelined:
            return sig
        r = Signal.like(sig, name=name)
        m.d.sync += r.eq(sig)
        return r

    def elaborate(self, platform):
        m = Module()
        q, w, B, n, mm = self.q, self.w, self.B, self.n, self.m
        R = 1 << w
        qp = (-pow(q, -1, R)) % R
        fwd, inv, scale = tables(self.scheme)
        mont = lambda x: x * R % q  # noqa: E731
        tw_words = []
        for tab in (fwd, inv):
            for k in range(0, mm, B):
                tw_words.append(sum(mont(tab[k + j]) << (w * j) for j in range(B)))
        logb = B.bit_length() - 1
        # Block RAM even where the table is small enough for LUTs (q = 3329: 256 x 12 bits).
        m.submodules.tw = tw = Memory(shape=unsigned(B * w), depth=len(tw_words), init=tw_words,
                                      attrs={"ram_style": "block", "rom_style": "block"})
        tw_rd = tw.read_port()
        ram = []
        for name in ("ram_a", "ram_b"):
            mem = Memory(shape=unsigned(B * w), depth=self.words, init=[])
            m.submodules[name] = mem
            ports = []
            for k in range(2):
                wp = mem.write_port()
                rp = mem.read_port()
                addr = Signal.like(self.io_addr, name=f"{name}_addr{k}")
                m.d.comb += [wp.addr.eq(addr), rp.addr.eq(addr)]
                ports.append((addr, rp, wp))
            ram.append(ports)

        # Control: pass (layer or scaling), group counter, source RAM.
        steps_bf = n // (2 * B)
        steps_sc = n // B
        half_steps = mm // (2 * B)
        src_b = Signal()
        inv_r = Signal()
        stage = Signal(range(self.layers + 1))
        scaling = Signal()
        cnt = Signal(range(steps_sc + 1))
        issue = Signal()
        wait = Signal(range(self.depth + 2))
        running = Signal()
        last_pass = Signal()
        m.d.comb += self.busy.eq(running)
        m.d.sync += self.done.eq(0)

        n_steps = Mux(scaling, steps_sc, steps_bf)
        gap = Signal(range(self.depth + 2))  # idle cycles after an issue (baseline)
        with m.If(~running):
            with m.If(self.start):
                m.d.sync += [running.eq(1), inv_r.eq(self.inverse), src_b.eq(0), cnt.eq(0),
                             scaling.eq(0), wait.eq(0), gap.eq(0),
                             stage.eq(Mux(self.inverse, self.layers - 1, 0))]
        with m.Else():
            with m.If(cnt < n_steps):
                with m.If(gap == 0):
                    m.d.comb += issue.eq(1)
                    m.d.sync += cnt.eq(cnt + 1)
                    if self.config == "baseline":
                        m.d.sync += gap.eq(self.depth)
                with m.Else():
                    m.d.sync += gap.eq(gap - 1)
            with m.Elif(wait < self.depth):  # drain the datapath before the next pass
                m.d.sync += wait.eq(wait + 1)
            with m.Else():
                m.d.sync += [wait.eq(0), cnt.eq(0), gap.eq(0), src_b.eq(~src_b)]
                m.d.comb += last_pass.eq(Mux(inv_r, scaling,
                                             stage == self.layers - 1))
                with m.If(last_pass):
                    m.d.sync += [running.eq(0), self.done.eq(1)]
                with m.Elif(inv_r & (stage == 0)):
                    m.d.sync += scaling.eq(1)
                with m.Else():
                    m.d.sync += stage.eq(Mux(inv_r, stage - 1, stage + 1))

        # Addresses of the group being issued.
        hb = (half_steps - 1).bit_length()
        g = Signal(max(hb, 1))
        e = Signal(max(self.nsub.bit_length() - 1, 1))
        m.d.comb += [g.eq(cnt[:hb] if hb else 0),
                     e.eq(cnt[hb:] if self.nsub > 1 else 0)]
        eb = e * (mm // B)
        ra0, ra1, wa0, wa1 = (Signal.like(self.io_addr, name=n_) for n_ in
                              ("ra0", "ra1", "wa0", "wa1"))
        with m.If(scaling):
            m.d.comb += [ra0.eq(cnt), ra1.eq(cnt), wa0.eq(cnt), wa1.eq(cnt)]
        with m.Elif(inv_r):
            m.d.comb += [ra0.eq(eb + 2 * g), ra1.eq(eb + 2 * g + 1),
                         wa0.eq(eb + g), wa1.eq(eb + g + half_steps)]
        with m.Else():
            m.d.comb += [ra0.eq(eb + g), ra1.eq(eb + g + half_steps),
                         wa0.eq(eb + 2 * g), wa1.eq(eb + 2 * g + 1)]
        # Twiddle word: entry 2^s + (i0 mod 2^s), i0 = g B.
        i0 = g * B
        sbit = Signal(range(mm + 1))
        m.d.comb += sbit.eq(Const(1, range(mm + 1)) << stage)
        k0 = Signal(range(mm + 1))
        m.d.comb += k0.eq(sbit | (i0 & (sbit - 1)))
        tw_addr = Signal.like(tw_rd.addr)
        m.d.comb += tw_addr.eq((k0 >> logb) + Mux(inv_r, mm // B, 0))
        m.d.comb += tw_rd.addr.eq(tw_addr)

        # Control travelling with the group: write addresses, mode, stage (for lane selects).
        ctl = [Signal(name="v0"), Signal.like(wa0, name="c_wa0"), Signal.like(wa1, name="c_wa1"),
               Signal(name="c_sc"), Signal(name="c_inv"), Signal.like(stage, name="c_st")]
        m.d.comb += [ctl[0].eq(issue), ctl[1].eq(wa0), ctl[2].eq(wa1), ctl[3].eq(scaling),
                     ctl[4].eq(inv_r), ctl[5].eq(stage)]
        c1 = [Signal.like(s, name=s.name + "_1") for s in ctl]
        m.d.sync += [a.eq(b) for a, b in zip(c1, ctl)]

        # RAM port wiring: reads from the source, writes (delayed) into the destination.
        wr_en = Signal()
        wr_a = [Signal.like(wa0, name="wr_a0"), Signal.like(wa1, name="wr_a1")]
        wr_d = [Signal(B * w, name="wr_d0"), Signal(B * w, name="wr_d1")]
        wr_one = Signal()  # scaling writes one word
        for r in range(2):
            is_src = src_b == r
            for k in range(2):
                addr, rp, wp = ram[r][k]
                with m.If(~running):
                    m.d.comb += addr.eq(self.io_addr)
                    if k == 0 and r == 0:
                        m.d.comb += [wp.en.eq(self.io_we), wp.data.eq(self.io_wdata)]
                with m.Elif(is_src):
                    m.d.comb += addr.eq(ra0 if k == 0 else ra1)
                with m.Else():
                    m.d.comb += [addr.eq(wr_a[k]), wp.data.eq(wr_d[k]),
                                 wp.en.eq(wr_en & (~wr_one if k else 1))]
        m.d.comb += self.io_rdata.eq(Mux(src_b, ram[1][0][1].data, ram[0][0][1].data))
        rd0 = Mux(src_b, ram[1][0][1].data, ram[0][0][1].data)
        rd1 = Mux(src_b, ram[1][1][1].data, ram[0][1][1].data)

        # Datapath, cycle 1 (read data valid): operands of the B multipliers.
        v, c_wa0, c_wa1, c_sc, c_inv, c_st = c1
        lanes = [rd0[w * j:w * (j + 1)] for j in range(B)] + \
                [rd1[w * j:w * (j + 1)] for j in range(B)]
        twl = [tw_rd.data[w * j:w * (j + 1)] for j in range(B)]
        xs, ops, ws = [], [], []
        for j in range(B):
            # Lane select for the first log2(B) layers (entries 2^s + (j mod 2^s) of word 0).
            wj = Signal(w, name=f"tw{j}")
            m.d.comb += wj.eq(twl[j])
            for s in range(logb):
                with m.If((c_st == s) & ~c_sc):
                    m.d.comb += wj.eq(twl[(1 << s) + (j & ((1 << s) - 1))])
            with m.If(c_sc):
                m.d.comb += wj.eq(mont(scale))
            x = Signal(w, name=f"x{j}")
            op = Signal(w, name=f"op{j}")
            xg, yg = lanes[2 * j], lanes[2 * j + 1]  # Gentleman-Sande pair
            xc, yc = lanes[j], lanes[B + j]  # Cooley-Tukey pair
            d = Signal(w + 1, name=f"d{j}")
            m.d.comb += d.eq(xg - yg)
            with m.If(c_sc):
                m.d.comb += [x.eq(0), op.eq(lanes[j])]
            with m.Elif(c_inv):
                s_ = Signal(w + 1, name=f"s{j}")
                m.d.comb += [s_.eq(xg + yg),
                             x.eq(Mux(s_ >= q, s_ - q, s_)),
                             op.eq(Mux(d[w], d + q, d))]
            with m.Else():
                m.d.comb += [x.eq(xc), op.eq(yc)]
            xs.append(x), ops.append(op), ws.append(wj)

        # Stage P: products.
        prods = []
        for j in range(B):
            p = Signal(2 * w, name=f"p{j}")
            m.d.comb += p.eq(ops[j] * ws[j])
            prods.append(self._reg(m, p, f"p{j}_r"))
        xs = [self._reg(m, x, f"x{j}_r") for j, x in enumerate(xs)]
        c2 = [self._reg(m, s, s.name + "_2") for s in c1]
        # Stage T: Montgomery quotient t = (p mod R) (-q^-1) mod R.
        ts = []
        for j in range(B):
            t = Signal(w, name=f"t{j}")
            m.d.comb += t.eq((prods[j][:w] * qp)[:w])
            ts.append(self._reg(m, t, f"t{j}_r"))
        prods = [self._reg(m, p, f"p{j}_rr") for j, p in enumerate(prods)]
        xs = [self._reg(m, x, f"x{j}_rr") for j, x in enumerate(xs)]
        c3 = [self._reg(m, s, s.name + "_3") for s in c2]
        # Stage U: u = (p + t q) / R < 2q, reduced; then the butterfly's add / subtract.
        outs = []
        for j in range(B):
            u = Signal(w + 1, name=f"u{j}")
            m.d.comb += u.eq((prods[j] + ts[j] * q) >> w)
            pr = Signal(w, name=f"pr{j}")
            m.d.comb += pr.eq(Mux(u >= q, u - q, u))
            a = Signal(w + 1, name=f"a{j}")
            b = Signal(w + 1, name=f"b{j}")
            m.d.comb += [a.eq(xs[j] + pr), b.eq(xs[j] - pr)]
            o_add, o_sub = Signal(w, name=f"oa{j}"), Signal(w, name=f"os{j}")
            m.d.comb += [o_add.eq(Mux(a >= q, a - q, a)), o_sub.eq(Mux(b[w], b + q, b))]
            outs.append((xs[j], pr, o_add, o_sub))
        v3, wa0_3, wa1_3, sc3, inv3, _ = c3
        w0 = [Signal(w, name=f"w0_{j}") for j in range(B)]
        w1 = [Signal(w, name=f"w1_{j}") for j in range(B)]
        ct_lanes = []
        for j in range(B):
            ct_lanes += [outs[j][2], outs[j][3]]
        for j in range(B):
            with m.If(sc3):
                m.d.comb += w0[j].eq(outs[j][1])
            with m.Elif(inv3):
                m.d.comb += [w0[j].eq(outs[j][0]), w1[j].eq(outs[j][1])]
            with m.Else():
                m.d.comb += [w0[j].eq(ct_lanes[j]), w1[j].eq(ct_lanes[B + j])]
        fin = [Signal(name="fv"), Signal.like(wa0, name="fa0"), Signal.like(wa1, name="fa1"),
               Signal(name="fsc"), Signal(B * w, name="fd0"), Signal(B * w, name="fd1")]
        vals = [v3, wa0_3, wa1_3, sc3, Cat(*w0), Cat(*w1)]
        if self.pipelined:
            m.d.sync += [a.eq(b) for a, b in zip(fin, vals)]
        else:
            m.d.comb += [a.eq(b) for a, b in zip(fin, vals)]
        m.d.comb += [wr_en.eq(fin[0]), wr_a[0].eq(fin[1]), wr_a[1].eq(fin[2]),
                     wr_one.eq(fin[3]), wr_d[0].eq(fin[4]), wr_d[1].eq(fin[5])]
        return m


BUTTERFLIES = (1, 2, 4)
# (scheme, q, label) in table order; every modulus gets every configuration and butterfly count.
MODULI = (("mldsa", 8380417, "ML-DSA"), ("mlkem", 3329, "ML-KEM"), ("falcon", 12289, "Falcon"))


def variants() -> list[Variant]:
    out = []
    for _scheme, q, label in MODULI:
        for config in ("baseline", "unrolled", "pipelined"):
            for b in BUTTERFLIES:
                out.append(Variant(NAME, config, {"q": q, "bf": b},
                                   f"{label} NTT/INTT (q = {q}), "
                                   f"{b} butterfl{'y' if b == 1 else 'ies'}"))
    return out


_BY_Q = {p["q"]: s for s, p in SCHEMES.items()}


def build(v: Variant) -> NttUnit:
    return NttUnit(_BY_Q[v.params["q"]], v.params["bf"], v.config)


def simulate(unit: NttUnit, polys: list[list[int]], inverse: bool) -> tuple[list[list[int]], int]:
    """Runs each polynomial through `unit`; returns the outputs and the cycles of one transform
    (start to done)."""
    from amaranth.sim import Simulator

    B, w = unit.B, unit.w
    outs, cycles = [], []

    async def bench(ctx):
        for poly in polys:
            ph = [0] * unit.n
            for i, x in enumerate(poly):
                ph[layout(unit.scheme, i)] = x
            for a in range(unit.words):
                ctx.set(unit.io_addr, a)
                ctx.set(unit.io_wdata, sum(ph[a * B + j] << (w * j) for j in range(B)))
                ctx.set(unit.io_we, 1)
                await ctx.tick()
            ctx.set(unit.io_we, 0)
            ctx.set(unit.inverse, inverse)
            ctx.set(unit.start, 1)
            await ctx.tick()
            ctx.set(unit.start, 0)
            n = 1
            while not ctx.get(unit.done):
                await ctx.tick()
                n += 1
            cycles.append(n)
            res = [0] * unit.n
            for a in range(unit.words):
                ctx.set(unit.io_addr, a)
                await ctx.tick()
                word = ctx.get(unit.io_rdata)
                for j in range(B):
                    res[a * B + j] = (word >> (w * j)) & ((1 << w) - 1)
            outs.append([res[layout(unit.scheme, i)] for i in range(unit.n)])

    sim = Simulator(unit)
    sim.add_clock(1e-8)
    sim.add_testbench(bench)
    sim.run()
    return outs, cycles[0]


def check(v: Variant, count: int = 2, seed: int = 1) -> int:
    """Forward and inverse transforms of `count` random polynomials against pqlab's (the
    `ntt` binary of pqlab-hwref); returns the cycles of one forward transform."""
    unit = build(v)
    rng = random.Random(seed)
    polys = [[rng.randrange(unit.q) for _ in range(unit.n)] for _ in range(count)]
    polys[0] = [unit.q - 1] * unit.n  # extreme values
    cycles = {}
    for inverse, direction in ((False, "fwd"), (True, "inv")):
        want = ref.run("ntt", unit.scheme, direction, stdin=polys)
        got, cycles[direction] = simulate(unit, polys, inverse)
        for k, (g, w_) in enumerate(zip(got, want)):
            bad = [i for i in range(unit.n) if g[i] != w_[i]]
            assert not bad, (f"{v.id} {direction} poly {k}: {len(bad)} wrong coefficients, "
                             f"first at {bad[0]}: got {g[bad[0]]}, pqlab {w_[bad[0]]}")
    return cycles["fwd"]
