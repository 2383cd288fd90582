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

import json
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
ICE40_LCS = 7680
ICE40_IOS = 206
# Above this share of the HX8K's LUT4s, nextpnr-ice40 0.4's routing did not converge within
# 12 minutes (Keccak, ExpandA: 75 % full), so such designs are not sent to it.
ICE40_MAX_UTIL = 0.6


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


def ice40(rtlil: pathlib.Path, work: pathlib.Path, timeout: float, ios: int) -> dict:
    """synth_ice40, then nextpnr-ice40 on an HX8K (ct256) where the design fits (`ios`: the
    number of port bits, which nextpnr places on pins)."""
    if shutil.which("nextpnr-ice40") is None:
        return {"fits": None, "fmax_mhz": None, "reason": "nextpnr-ice40 not installed"}
    script = (
        f"read_rtlil {rtlil.name}; synth_ice40 -top top -json net_ice40.json; "
        "tee -o stat_ice40.txt stat"
    )
    _run(["yosys", "-q", "-p", script], cwd=work)
    stat = (work / "stat_ice40.txt").read_text()
    counts = {m.group(1): int(m.group(2)) for m in map(_CELL_LINE.match, stat.splitlines()) if m}
    luts = counts.get("SB_LUT4", 0)
    ffs = sum(n for c, n in counts.items() if c.startswith("SB_DFF"))
    info = {"lut4": luts, "dff": ffs, "io": ios, "fits": True, "fmax_mhz": None}
    if luts > ICE40_LCS or ffs > ICE40_LCS or ios > ICE40_IOS:
        info.update(fits=False, reason=f"needs {luts} LUT4 / {ffs} DFF / {ios} IO: over an HX8K")
        return info
    if max(luts, ffs) > ICE40_MAX_UTIL * ICE40_LCS:
        info.update(
            fits=False,
            reason=f"{max(luts, ffs)} of {ICE40_LCS} HX8K cells (> {ICE40_MAX_UTIL:.0%}): "
            "too full for nextpnr-ice40 to route in reasonable time, not run",
        )
        return info
    cmd = [
        "nextpnr-ice40", ICE40_DEVICE[0], "--package", ICE40_DEVICE[1], "--json", "net_ice40.json",
        "--pcf-allow-unconstrained", "--freq", "50", "--timing-allow-fail", "--seed", "1",
        "-l", "nextpnr.log", "-q",
    ]  # fmt: skip
    t0 = time.monotonic()
    try:
        _run(cmd, cwd=work, timeout=timeout)
    except subprocess.TimeoutExpired:
        info.update(fmax_mhz=None, reason=f"nextpnr-ice40 ran past {timeout:.0f} s")
        return info
    except RuntimeError as e:
        info.update(fits=False, reason=str(e)[:200])
        return info
    info["pnr_s"] = round(time.monotonic() - t0, 1)
    info["fmax_mhz"] = parse_fmax((work / "nextpnr.log").read_text())
    return info


# ---- one variant, all variants ------------------------------------------------------------------


def run_variant(mod, v: core.Variant, *, pnr: bool, pnr_timeout: float, keep: str | None) -> dict:
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
            ice40(il, work, pnr_timeout, row["io"]) if pnr else {"fits": None, "fmax_mhz": None,
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


def run(
    cores: list[str] | None = None,
    configs: list[str] | None = None,
    *,
    quick: bool = False,
    pnr: bool = True,
    pnr_timeout: float = 900,
    keep: str | None = None,
    log=print,
) -> dict:
    """Runs the flow; `quick`: one variant of each core (its first baseline), no place and
    route."""
    if quick:
        configs = configs or ["baseline"]
        pnr = False
    rows = []
    for mod, v in selected(cores, configs, first_only=quick):
        log(f"[hw] {v.id}: simulate, synthesize" + (", place and route (iCE40)" if pnr else ""))
        row = run_variant(mod, v, pnr=pnr, pnr_timeout=pnr_timeout, keep=keep)
        if row["error"]:
            log(f"[hw] {v.id}: FAILED: {row['error']}")
        else:
            ice = row["ice40"].get("fmax_mhz")
            log(
                f"[hw] {v.id}: {row['cycles']} cycles, {row['ff']} FF, {row['lut']} LUT, "
                f"{row['dsp']} DSP, {row['bram']} BRAM, ~{row['xc7_period_ns_est']} ns (xc7 est)"
                + (f", {ice} MHz (iCE40)" if ice else "")
            )
        rows.append(row)
    return {
        "schema": "pqlab-hw/1",
        "note": "ours are RTL kernels (one critical function each), not whole schemes",
        "quick": quick,
        "tools": tool_versions(),
        "clock_assumption": ASSUMPTION,
        "ice40_device": f"iCE40 HX8K {ICE40_DEVICE[1]} (nextpnr-ice40)",
        "area_for_lap": "LUT (as the study: LAP = LUT x cycles); lap_lutff = (LUT + FF) x cycles",
        "results": rows,
    }
