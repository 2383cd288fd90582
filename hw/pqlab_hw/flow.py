"""The hardware lab's flow: for every Variant of every core module (pqlab_hw/core.py), simulate
(`check`: correctness against pqlab, latency in cycles), synthesize with Yosys `synth_xilinx`
for 7-series (FF, LUT, DSP, BRAM), estimate the clock, and compute LAP = latency x area.

Clock figures, two of them, neither a Virtex-7 timing:
  * `xc7_period_ns_est`: the longest register-to-register path of the synth_xilinx netlist,
    counted in cells and turned into ns with the fixed per-cell delays of XC7_DELAY_NS (no
    placement, no routing: a logic-depth model, see ASSUMPTION).
  * `ice40`: nextpnr-ice40's maximum frequency after place and route on an iCE40 HX8K (ct256)
    where the design fits one (synth_ice40 first); an iCE40, not a 7-series, figure.
"""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

from . import core

# Per-cell delays of the logic-depth model (ns), 7-series -1 speed grade, routing included
# in the per-level figure: LUT 0.12 ns plus a typical local net 0.45 ns.
XC7_DELAY_NS = {
    "LUT": 0.57,
    "MUXF7": 0.30,
    "MUXF8": 0.30,
    "CARRY4": 0.25,
    "DSP48E1": 3.0,  # multiply-add from the DSP's inputs to P (halved with MREG)
    "RAMB_CLK_TO_OUT": 2.0,  # block RAM read, no output register (beyond a FF's 0.45 ns)
}
XC7_FF_OVERHEAD_NS = 0.8  # clock-to-out 0.45 ns + setup 0.35 ns
ASSUMPTION = (
    "xc7 clock = {ff} ns + sum of cell delays on the longest register-to-register path of the "
    "synth_xilinx netlist (LUT {lut} ns incl. routing, MUXF7/8 {mux} ns, CARRY4 {carry} ns, "
    "DSP48E1 multiply-add {dsp} ns, block RAM read {bram} ns): a logic-depth estimate without "
    "placement or routing, "
    "trust it to about +-50 %; iCE40 fmax is nextpnr-ice40 after place and route on an iCE40 "
    "HX8K, a different and slower FPGA family, not a Virtex-7 figure"
).format(
    ff=XC7_FF_OVERHEAD_NS,
    lut=XC7_DELAY_NS["LUT"],
    mux=XC7_DELAY_NS["MUXF7"],
    carry=XC7_DELAY_NS["CARRY4"],
    dsp=XC7_DELAY_NS["DSP48E1"],
    bram=XC7_DELAY_NS["RAMB_CLK_TO_OUT"],
)

ICE40_DEVICE = ("--hx8k", "ct256")
ICE40_LCS = 7680  # logic cells (LUT4 + DFF) of an HX8K
ICE40_BRAMS = 32  # SB_RAM40_4K blocks (4 Kbit each)
# nextpnr-ice40 runs are bounded in CPU seconds (prlimit), not wall-clock ones, so that a
# figure does not depend on how busy the machine is. Above ICE40_MAX_UTIL of the HX8K's cells
# routing does not converge in reasonable time (Keccak's 1600-bit state in its shell, 77 %:
# router1 still had 12,269 arcs to route after 50,000 iterations, 508 s; router2 had 864 overused
# wires after 15 iterations, 68 CPU s, and router2 of nextpnr 0.4 can stall on its last overused
# wire, as it did for 4 CPU minutes on the 7 %-full sparse-mul): such designs are not sent to
# nextpnr unless asked (`pnr_full`, lab.py --pnr-full), and then with router2 and
# ICE40_FULL_CPU_S.
ICE40_MAX_UTIL = 0.6
ICE40_CPU_S = 600
ICE40_FULL_CPU_S = 600
# nextpnr-ice40 options: heap placer (analytic), router1, timing-driven, fixed seed; the 4-pin
# shell (serial_shell) keeps the I/O count at 4.
# --quick places and routes this one (about 10 s) so that CI exercises the iCE40 path.
QUICK_PNR = ("sparse-mul/baseline/lanes1-setmldsa44",)
NEXTPNR_OPTS = ["--placer", "heap", "--router", "router1", "--freq", "50", "--timing-allow-fail",
                "--seed", "1", "--pcf-allow-unconstrained"]  # fmt: skip


class ToolMissing(RuntimeError):
    """A tool the flow needs (yosys, nextpnr-ice40, amaranth) is not installed."""


def _run(cmd: list[str], cwd, timeout: float | None = None) -> str:
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        tail = (out.stdout + out.stderr).strip().splitlines()[-5:]
        raise RuntimeError(f"{cmd[0]} failed (exit {out.returncode}): " + " | ".join(tail))
    return out.stdout


def tool_versions() -> dict:
    versions = {"python": sys.version.split()[0]}
    try:
        import amaranth

        versions["amaranth"] = amaranth.__version__
    except ImportError:
        versions["amaranth"] = None
    for tool, flag in (("yosys", "-V"), ("nextpnr-ice40", "--version")):
        path = shutil.which(tool)
        if path is None:
            versions[tool] = None
            continue
        out = subprocess.run([path, flag], capture_output=True, text=True)
        versions[tool] = (out.stdout + out.stderr).strip().splitlines()[0]
    return versions


def top_ports(top):
    """The ports of a core's top: None for an amaranth wiring.Component (its signature says),
    else every Signal attribute (the contract: ports as attributes)."""
    from amaranth.hdl import Signal
    from amaranth.lib import wiring

    if isinstance(top, wiring.Component):
        return None
    return [v for v in vars(top).values() if isinstance(v, Signal)]


def write_rtlil(top, path: pathlib.Path) -> None:
    from amaranth.back import rtlil

    ports = top_ports(top)
    text = rtlil.convert(top, name="top", ports=ports) if ports is not None else rtlil.convert(
        top, name="top"
    )
    path.write_text(text)


# ---- Yosys synth_xilinx -------------------------------------------------------------------------

_CELL_LINE = re.compile(r"^\s+(\S+)\s+(\d+)\s*$")


def parse_stat(text: str) -> dict:
    """Cell counts of the last `stat` report in `text` (yosys output), grouped as the study's
    columns: ff (FD*), lut (LUT1..6), lutram (RAM*X*/RAM*M), dsp (DSP48E1), bram (RAMB36E1 +
    RAMB18E1 / 2, in 36 Kb blocks), io (IBUF/OBUF/IOBUF), carry (CARRY4), and `cells` (all)."""
    start = text.rfind("Number of cells:")
    if start < 0:
        raise ValueError("no yosys `stat` report in the text")
    cells: dict[str, int] = {}
    for line in text[start:].splitlines()[1:]:
        match = _CELL_LINE.match(line)
        if not match:
            if cells or line.strip():
                break
            continue
        cells[match.group(1)] = int(match.group(2))

    def total(pred) -> int:
        return sum(n for name, n in cells.items() if pred(name))

    return {
        "ff": total(lambda c: re.fullmatch(r"FD[A-Z]*", c) is not None),
        "lut": total(lambda c: re.fullmatch(r"LUT[1-6](_2)?", c) is not None),
        "lutram": total(lambda c: re.fullmatch(r"RAM\d+(X\d+[SD]|M)\w*", c) is not None),
        "srl": total(lambda c: c.startswith("SRL")),
        "dsp": total(lambda c: c.startswith("DSP48")),
        "bram": cells.get("RAMB36E1", 0) + cells.get("RAMB18E1", 0) / 2,
        "carry": cells.get("CARRY4", 0),
        "io": total(lambda c: c in ("IBUF", "OBUF", "IOBUF", "OBUFT")),
        "cells": cells,
    }


def _is_sequential(cell: dict) -> bool:
    t = cell["type"]
    if t.startswith(("FD", "RAMB", "SRL")) or t in ("BUFG", "IBUF", "OBUF", "IOBUF", "OBUFT"):
        return True
    if t.startswith("DSP48"):
        return _param_int(cell.get("parameters", {}).get("PREG", 1)) != 0
    return False


def _param_int(value) -> int:
    """A cell parameter of yosys' JSON: an int, or a string of binary digits."""
    if isinstance(value, str) and value and set(value) <= {"0", "1"}:
        return int(value, 2)
    return int(value)


def _cell_delay(t: str) -> tuple[float, int]:
    """Delay and LUT levels of a combinational cell."""
    if t.startswith("LUT") or (t.startswith("RAM") and "X" in t):
        return XC7_DELAY_NS["LUT"], 1
    if t.startswith("DSP48"):
        return XC7_DELAY_NS["DSP48E1"], 0
    return XC7_DELAY_NS.get(t, 0.0), 0


def _source_delay(cell: dict) -> float:
    """Extra delay at the output of a sequential cell (beyond a flip-flop's clock-to-out)."""
    return XC7_DELAY_NS["RAMB_CLK_TO_OUT"] if cell["type"].startswith("RAMB") else 0.0


def _sink_delay(cell: dict) -> float:
    """Delay inside a registered DSP48 between its inputs and its P register: the multiply-add
    (half of it when the M register cuts it)."""
    if not cell["type"].startswith("DSP48"):
        return 0.0
    mreg = _param_int(cell.get("parameters", {}).get("MREG", 1))
    return XC7_DELAY_NS["DSP48E1"] / (2 if mreg else 1)


def logic_depth(netlist: dict, module: str = "top") -> dict:
    """The longest combinational path of a synth_xilinx JSON netlist, between sequential cells
    (flip-flops, block RAM, registered DSP) and I/O buffers: its delay under the XC7 model and
    its number of LUT levels."""
    cells = netlist["modules"][module]["cells"]
    driver: dict = {}
    for name, cell in cells.items():
        for port, bits in cell["connections"].items():
            if cell.get("port_directions", {}).get(port) == "output":
                for b in bits:
                    driver[b] = name
    memo: dict[str, tuple[float, int]] = {}

    def inputs(cell: dict):
        for port, bits in cell["connections"].items():
            if cell.get("port_directions", {}).get(port) == "input":
                yield from bits

    def at_net(b) -> tuple[float, int]:
        """Delay and LUT levels at net bit `b`."""
        src = driver.get(b)
        if src is None:
            return (0.0, 0)
        if _is_sequential(cells[src]):
            return (_source_delay(cells[src]), 0)
        return arrival(src)

    def arrival(name: str) -> tuple[float, int]:
        """Delay and LUT levels at the output of combinational cell `name`."""
        if name in memo:
            return memo[name]
        memo[name] = (0.0, 0)  # guards against a combinational loop
        best = max((at_net(b) for b in inputs(cells[name])), default=(0.0, 0))
        d, lv = _cell_delay(cells[name]["type"])
        memo[name] = (best[0] + d, best[1] + lv)
        return memo[name]

    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
    worst = (0.0, 0)
    for cell in cells.values():
        if not _is_sequential(cell):
            continue
        for b in inputs(cell):
            d, lv = at_net(b)
            worst = max(worst, (d + _sink_delay(cell), lv))
    return {
        "lut_levels": worst[1],
        "xc7_period_ns_est": round(XC7_FF_OVERHEAD_NS + worst[0], 2),
    }


def synth_xilinx(rtlil: pathlib.Path, work: pathlib.Path) -> dict:
    """Yosys synth_xilinx (7-series) of `rtlil`: cell counts and the logic-depth clock estimate."""
    if shutil.which("yosys") is None:
        raise ToolMissing("yosys is not installed (Debian: apt-get install yosys)")
    script = (
        f"read_rtlil {rtlil.name}; synth_xilinx -family xc7 -top top -flatten; "
        "tee -o stat_xc7.txt stat; write_json net_xc7.json"
    )
    _run(["yosys", "-q", "-p", script], cwd=work)
    result = parse_stat((work / "stat_xc7.txt").read_text())
    result.update(logic_depth(json.loads((work / "net_xc7.json").read_text())))
    return result


# ---- iCE40 place and route ----------------------------------------------------------------------

_PORT = re.compile(r"^\s*wire\s+(?:width\s+(\d+)\s+)?(input|output|inout)\s+\d+\s+\\(\S+)")


def rtlil_ports(text: str, module: str = "top") -> list[tuple[str, str, int]]:
    """(name, direction, width) of every port of `module` in an RTLIL text, in port order."""
    ports, inside = [], False
    for line in text.splitlines():
        if line.startswith("module "):
            inside = line.split()[1] == "\\" + module
        elif inside and line.startswith("end"):
            break
        elif inside:
            match = _PORT.match(line)
            if match:
                ports.append((match.group(3), match.group(2), int(match.group(1) or 1)))
    return ports


def serial_shell(ports: list[tuple[str, str, int]], fold: int = 16) -> str:
    """Verilog of `shell`, a 4-pin wrapper (clk, rst, sin, sout) around the core `top` for
    place and route: every input port bit of the core comes from one flip-flop of a serial
    shift chain fed by `sin`; every output bit is registered, XOR-folded in slices of `fold`
    bits into registers, and those XOR-ed into the registered `sout`. Nothing of the core can
    be optimised away (every output reaches `sout`), the core's I/O paths start and end at
    flip-flops, and the design needs 4 pins instead of one per port bit. Cost: one DFF per
    input bit, two per output bit (plus the folds), and the fold's LUT4s."""
    ins = [(n, w) for n, d, w in ports if d == "input" and n not in ("clk", "rst")]
    outs = [(n, w) for n, d, w in ports if d == "output"]
    n_in = max(2, sum(w for _, w in ins))
    n_out = max(1, sum(w for _, w in outs))
    n_fold = (n_out + fold - 1) // fold
    conns, lo = [".clk(clk)"], 0
    if any(n == "rst" for n, _, _ in ports):
        conns.append(".rst(rst)")
    for n, w in ins:
        conns.append(f".{n}(chain[{lo + w - 1}:{lo}])")
        lo += w
    lo = 0
    for n, w in outs:
        conns.append(f".{n}(outs[{lo + w - 1}:{lo}])")
        lo += w
    folds = "\n".join(
        f"    fold[{k}] <= ^outs_r[{min(n_out, (k + 1) * fold) - 1}:{k * fold}];"
        for k in range(n_fold)
    )
    return f"""module shell(input clk, input rst, input sin, output sout);
  reg [{n_in - 1}:0] chain;
  wire [{n_out - 1}:0] outs;
  reg [{n_out - 1}:0] outs_r;
  reg [{n_fold - 1}:0] fold;
  reg sout_r;
  assign sout = sout_r;
  top core({", ".join(conns)});
  always @(posedge clk) begin
    chain <= {{chain[{n_in - 2}:0], sin}};
    outs_r <= outs;
{folds}
    sout_r <= ^fold;
  end
endmodule
"""


_FMAX = re.compile(r"Max frequency for clock\s+'([^']+)':\s+([\d.]+) MHz")


def parse_fmax(log: str) -> float | None:
    """The lowest clock frequency of nextpnr's last timing report (after routing)."""
    found = _FMAX.findall(log)
    if not found:
        return None
    last_clock = {}
    for clock, mhz in found:
        last_clock[clock] = float(mhz)
    return min(last_clock.values())


def ice40_counts(stat: str) -> dict:
    """LUT4, DFF, carry and block RAM counts of a synth_ice40 `stat` report."""
    counts = {m.group(1): int(m.group(2)) for m in map(_CELL_LINE.match, stat.splitlines()) if m}
    return {
        "lut4": counts.get("SB_LUT4", 0),
        "dff": sum(n for c, n in counts.items() if c.startswith("SB_DFF")),
        "carry": counts.get("SB_CARRY", 0),
        "bram": sum(n for c, n in counts.items() if c.startswith("SB_RAM40_4K")),
        "dsp": counts.get("SB_MAC16", 0),
    }


def ice40_fit(c: dict) -> str | None:
    """Why the synthesized shell cannot fit an HX8K (None when it can)."""
    why = []
    if c["lut4"] > ICE40_LCS:
        why.append(f"{c['lut4']} LUT4 > {ICE40_LCS}")
    if c["dff"] > ICE40_LCS:
        why.append(f"{c['dff']} DFF > {ICE40_LCS}")
    if c["bram"] > ICE40_BRAMS:
        why.append(f"{c['bram']} block RAMs (4 Kbit) > {ICE40_BRAMS}")
    return "; ".join(why) + " of an HX8K (the largest iCE40)" if why else None


_MEMORY = re.compile(
    r"^\s*memory\s+width\s+(\d+)\s+size\s+(\d+)\s+(?:offset\s+\d+\s+)?\\(\S+)", re.M
)
_MEMPORT = re.compile(r"cell \$mem(rd|wr)\S*\s+\S+\s+parameter \\MEMID \"\\\\(\S+)\"")
EBR_BITS = 4096


def ice40_precheck(rtlil_text: str) -> str | None:
    """A reason why the core cannot fit an HX8K, read off its memories before synthesis (None
    when the memories leave it possible). An iCE40 block RAM has one write port, so a memory
    written through two ports becomes width x depth flip-flops, each behind a LUT4 that picks
    the port, and every read port a width x (depth:1) multiplexer, at least (depth - 1) / 3
    LUT4s a bit; the 32 block RAMs hold 128 Kbit, and a LUT4 at most 16 bits of the rest."""
    mems = {m.group(3): (int(m.group(1)), int(m.group(2)))
            for m in _MEMORY.finditer(rtlil_text)}  # fmt: skip
    ports: dict[tuple[str, str], int] = {}
    for m in _MEMPORT.finditer(rtlil_text):
        ports[m.group(1), m.group(2)] = ports.get((m.group(1), m.group(2)), 0) + 1
    multi = [n for n in mems if ports.get(("wr", n), 0) > 1]
    ffs = sum(mems[n][0] * mems[n][1] for n in multi)
    luts = 0
    for n in multi:
        width, depth = mems[n]
        luts += width * depth + ports.get(("rd", n), 0) * width * (depth - 1) // 3
    if max(ffs, luts) > ICE40_LCS:
        return (f"memories written through 2 ports ({', '.join(sorted(multi))}: {ffs} bits) "
                "cannot be iCE40 block RAM (one write port): as logic they need at least "
                f"{ffs} DFF and {luts} LUT4, more than the HX8K's {ICE40_LCS} cells")
    rest = sum(w * d for n, (w, d) in mems.items() if n not in multi)
    over = rest - ICE40_BRAMS * EBR_BITS
    if over > 0 and over / 16 > ICE40_LCS:
        return (f"{rest} bits of memory: more than the HX8K's {ICE40_BRAMS} block RAMs "
                f"({ICE40_BRAMS * EBR_BITS} bits) plus its {ICE40_LCS} LUT4s (16 bits each)")
    return None


def ice40(rtlil: pathlib.Path, work: pathlib.Path, timeout: float, full_ok: bool = False) -> dict:
    """synth_ice40 of the core in its 4-pin serial shell (`serial_shell`), then nextpnr-ice40
    on an HX8K (ct256) where it fits; fmax after routing."""
    if shutil.which("nextpnr-ice40") is None:
        return {"fits": None, "fmax_mhz": None, "reason": "nextpnr-ice40 not installed"}
    text = rtlil.read_text()
    why = ice40_precheck(text)
    if why:
        return {"fits": False, "fmax_mhz": None, "reason": why + " (not synthesized)"}
    (work / "shell.v").write_text(serial_shell(rtlil_ports(text)))
    script = (
        f"read_rtlil {rtlil.name}; read_verilog shell.v; synth_ice40 -top shell "
        "-json net_ice40.json; tee -o stat_ice40.txt stat"
    )
    t0 = time.monotonic()
    _run(["yosys", "-q", "-p", script], cwd=work)
    info = ice40_counts((work / "stat_ice40.txt").read_text())
    info.update(io=4, shell="serial (clk, rst, sin, sout)", fits=True, fmax_mhz=None,
                synth_s=round(time.monotonic() - t0, 1))
    why = ice40_fit(info)
    if why:
        info.update(fits=False, reason=why)
        return info
    used = max(info["lut4"], info["dff"])
    full = used > ICE40_MAX_UTIL * ICE40_LCS
    if full and not full_ok:
        info.update(fits=None, reason=(
            f"fits ({used} of {ICE40_LCS} cells, {used / ICE40_LCS:.0%}), but too full to route "
            f"in reasonable time (> {ICE40_MAX_UTIL:.0%}): not placed and routed (--pnr-full)"))
        return info
    cpu = ICE40_FULL_CPU_S if full else ICE40_CPU_S
    opts = [o if o != "router1" or not full else "router2" for o in NEXTPNR_OPTS]
    cmd = ["prlimit", f"--cpu={cpu}", "nextpnr-ice40", ICE40_DEVICE[0], "--package",
           ICE40_DEVICE[1], "--json", "net_ice40.json", *opts, "-l", "nextpnr.log", "-q"]
    t0 = time.monotonic()
    try:
        out = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=timeout)
        stopped = out.returncode in (-24, -9, 128 + 24, 128 + 9) and "limit" or None
        if out.returncode != 0 and not stopped:
            tail = (out.stdout + out.stderr).strip().splitlines()[-3:]
            info.update(fits=False, reason=f"nextpnr-ice40 failed: {' | '.join(tail)}"[:200])
            return info
    except subprocess.TimeoutExpired:
        stopped = "wall"
    if stopped:
        log = (work / "nextpnr.log").read_text() if (work / "nextpnr.log").exists() else ""
        budget = f"{cpu} CPU s" if stopped == "limit" else f"{timeout:.0f} s"
        info.update(fits=None, pnr_s=round(time.monotonic() - t0, 1), reason=(
            f"placed, routing not finished in {budget} ({pnr_progress(log)})"))
        return info
    info["pnr_s"] = round(time.monotonic() - t0, 1)
    log = (work / "nextpnr.log").read_text()
    info["fmax_mhz"] = parse_fmax(log)
    info["lc"] = parse_util(log).get("ICESTORM_LC")
    info["reason"] = "placed and routed"
    return info


_UTIL = re.compile(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)", re.M)
_OVERUSE = re.compile(r"overused=(\d+)")


def parse_util(log: str) -> dict:
    """Used cells per bel type of nextpnr's device utilisation report."""
    return {m.group(1): int(m.group(2)) for m in _UTIL.finditer(log)}


def pnr_progress(log: str) -> str:
    """How far an unfinished nextpnr run got: the router's last overused-wire count."""
    over = _OVERUSE.findall(log)
    return f"{over[-1]} wires still overused" if over else "no routing progress logged"


# ---- one variant, all variants ------------------------------------------------------------------


def run_variant(mod, v: core.Variant, *, pnr: bool, pnr_timeout: float, keep: str | None,
                pnr_full: bool = False) -> dict:
    row = {
        "core": mod.NAME,
        "config": v.config,
        "variant": v.id,
        "description": v.description,
        "critical_of": mod.CRITICAL_OF,
        "ok": False,
        "error": None,
    }
    t0 = time.monotonic()
    try:
        row["cycles"] = int(mod.check(v))
        row["check_s"] = round(time.monotonic() - t0, 1)
    except AssertionError as e:
        row["error"] = f"simulation does not match pqlab: {e}"
        return row
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        row["error"] = f"no reference answers from pqlab-hwref: {e}"
        return row
    work = pathlib.Path(keep or tempfile.mkdtemp(prefix="pqlab-hw-"))
    work = work / v.id.replace("/", "_") if keep else work
    work.mkdir(parents=True, exist_ok=True)
    try:
        il = work / "top.il"
        write_rtlil(mod.build(v), il)
        t1 = time.monotonic()
        row.update(synth_xilinx(il, work))
        row["synth_s"] = round(time.monotonic() - t1, 1)
        row["ice40"] = (
            ice40(il, work, pnr_timeout, pnr_full) if pnr else {"fits": None, "fmax_mhz": None,
                                                      "reason": "not run (--quick or --no-pnr)"}
        )  # fmt: skip
    except ToolMissing:
        raise
    except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
        row["error"] = f"synthesis: {e}"
        return row
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    row["lap_lut"] = row["cycles"] * row["lut"]
    row["lap_lutff"] = row["cycles"] * (row["lut"] + row["ff"])
    row["ok"] = True
    return row


def selected(cores: list[str] | None, configs: list[str] | None, first_only: bool = False):
    """(module, variant) pairs to run, filtered by core NAME / module name and by config;
    `first_only`: the first matching variant of each module."""
    for mod in core.modules():
        short = mod.__name__.rsplit(".", 1)[-1]
        if cores and mod.NAME not in cores and short not in cores:
            continue
        for v in mod.variants():
            if configs and v.config not in configs:
                continue
            yield mod, v
            if first_only:
                break


def _run_nth(cores, configs, quick: bool, n: int, kw: dict) -> dict:
    """run_variant of the n-th variant `selected` gives (in a worker process)."""
    for i, (mod, v) in enumerate(selected(cores, configs, first_only=quick)):
        if i == n:
            return run_variant(mod, v, **kw)
    raise IndexError(n)


def run(
    cores: list[str] | None = None,
    configs: list[str] | None = None,
    *,
    quick: bool = False,
    pnr: bool = True,
    pnr_timeout: float = 3600,
    pnr_full: bool = False,
    keep: str | None = None,
    log=print,
    jobs: int | None = None,
) -> dict:
    """Runs the flow; `quick`: one variant of each core (its first baseline), place and route
    only for QUICK_PNR (a small core: the iCE40 path in seconds); `jobs` variants at a time
    (default: one per CPU)."""
    if quick:
        configs = configs or ["baseline"]
    t_run = time.monotonic()
    pairs = list(selected(cores, configs, first_only=quick))
    kw = [dict(pnr=pnr and (not quick or v.id in QUICK_PNR), pnr_timeout=pnr_timeout, keep=keep,
               pnr_full=pnr_full) for _, v in pairs]  # fmt: skip
    for (_, v), k in zip(pairs, kw):
        log(f"[hw] {v.id}: simulate, synthesize"
            + (", place and route (iCE40)" if k["pnr"] else ""))  # fmt: skip
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(pairs)))
    pool = None
    if jobs == 1:
        results = (run_variant(mod, v, **k) for (mod, v), k in zip(pairs, kw))
    else:
        # One process per variant at a time (the simulations are Python, the syntheses
        # subprocesses): forked, each finds its variant again by index.
        ctx = multiprocessing.get_context("fork")
        pool = concurrent.futures.ProcessPoolExecutor(jobs, mp_context=ctx)
        futures = [pool.submit(_run_nth, cores, configs, quick, i, k) for i, k in enumerate(kw)]
        results = (f.result() for f in futures)
    rows = []
    try:
        for (_, v), row in zip(pairs, results):
            if row["error"]:
                log(f"[hw] {v.id}: FAILED: {row['error']}")
            else:
                ice = row["ice40"].get("fmax_mhz")
                log(
                    f"[hw] {v.id}: {row['cycles']} cycles, {row['ff']} FF, {row['lut']} LUT, "
                    f"{row['dsp']} DSP, {row['bram']} BRAM, ~{row['xc7_period_ns_est']} ns "
                    "(xc7 est)" + (f", {ice} MHz (iCE40)" if ice else "")
                )
            rows.append(row)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return {
        "schema": "pqlab-hw/1",
        "note": "ours are RTL kernels (one critical function each), not whole schemes",
        "quick": quick,
        "tools": tool_versions(),
        "clock_assumption": ASSUMPTION,
        "ice40_device": f"iCE40 HX8K {ICE40_DEVICE[1]} (nextpnr-ice40 {' '.join(NEXTPNR_OPTS)})",
        "area_for_lap": "LUT (as the study: LAP = LUT x cycles); lap_lutff = (LUT + FF) x cycles",
        "run_s": round(time.monotonic() - t_run, 1),
        "results": rows,
    }
