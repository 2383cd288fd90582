"""The flow's parsers: yosys `stat` (a stored synth_xilinx report), nextpnr's fmax lines, the
logic-depth model on a small netlist, and the study's tables."""

import os
import pathlib

import pytest

from pqlab_hw import flow, report

DATA = pathlib.Path(__file__).parent / "data"


def test_parse_stat_stored_yosys_output():
    s = flow.parse_stat((DATA / "stat_xc7_keccak_baseline.txt").read_text())
    assert s["ff"] == 1607
    assert s["lut"] == 155 + 501 + 398 + 787 + 2067
    assert s["dsp"] == 0 and s["bram"] == 0 and s["carry"] == 2
    assert s["io"] == 68 + 66
    assert s["cells"]["BUFG"] == 1


def test_parse_stat_counts_dsp_and_bram():
    text = "Number of cells: 9\n  DSP48E1 2\n  RAMB36E1 1\n  RAMB18E1 3\n  FDCE 4\n  LUT6_2 5\n"
    s = flow.parse_stat(text)
    assert (s["dsp"], s["bram"], s["ff"], s["lut"]) == (2, 2.5, 4, 5)


def test_parse_stat_rejects_text_without_report():
    with pytest.raises(ValueError):
        flow.parse_stat("no statistics here")


def test_parse_fmax_takes_last_report():
    log = (
        "Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 50.00 MHz (PASS at 12.00 MHz)\n"
        "Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 41.25 MHz (PASS at 12.00 MHz)\n"
    )
    assert flow.parse_fmax(log) == 41.25
    assert flow.parse_fmax("nothing") is None


def _cell(t, ins, outs):
    conns = {**{p: b for p, b in ins.items()}, **{p: b for p, b in outs.items()}}
    dirs = {**{p: "input" for p in ins}, **{p: "output" for p in outs}}
    return {"type": t, "connections": conns, "port_directions": dirs, "parameters": {}}


def test_logic_depth_counts_luts_between_flip_flops():
    cells = {
        "ff1": _cell("FDRE", {"D": [9]}, {"Q": [2]}),
        "lut1": _cell("LUT2", {"I0": [2], "I1": [2]}, {"O": [3]}),
        "lut2": _cell("LUT6", {"I0": [3], "I1": [2]}, {"O": [4]}),
        "lut3": _cell("LUT1", {"I0": [2]}, {"O": [5]}),
        "ff2": _cell("FDRE", {"D": [4]}, {"Q": [6]}),
        "ff3": _cell("FDRE", {"D": [5]}, {"Q": [9]}),
    }
    d = flow.logic_depth({"modules": {"top": {"cells": cells}}})
    assert d["lut_levels"] == 2
    assert d["xc7_period_ns_est"] == pytest.approx(
        flow.XC7_FF_OVERHEAD_NS + 2 * flow.XC7_DELAY_NS["LUT"], abs=0.01
    )


def test_logic_depth_block_ram_and_registered_dsp():
    dsp = _cell("DSP48E1", {"A": [2]}, {"P": [3]})
    dsp["parameters"] = {"PREG": "1", "MREG": "0"}
    cells = {
        "ram": _cell("RAMB18E1", {"ADDRARDADDR": [3]}, {"DOADO": [1]}),
        "lut": _cell("LUT3", {"I0": [1]}, {"O": [2]}),
        "dsp": dsp,
    }
    d = flow.logic_depth({"modules": {"top": {"cells": cells}}})
    want = (
        flow.XC7_FF_OVERHEAD_NS
        + flow.XC7_DELAY_NS["RAMB_CLK_TO_OUT"]
        + flow.XC7_DELAY_NS["LUT"]
        + flow.XC7_DELAY_NS["DSP48E1"]
    )
    assert d["lut_levels"] == 1
    assert d["xc7_period_ns_est"] == pytest.approx(want, abs=0.01)


def test_study_rows():
    if report.study_path() is None:
        assert os.environ.get("CI") != "true", "../shared/papers missing under CI"
        pytest.skip("../shared/papers not found")
    rows = report.study_rows()
    dil = [r for r in rows if r["scheme_id"] == "dilithium-r2"]
    assert {r["config"] for r in dil} == {"baseline", "unrolled", "pipelined"}
    assert all(r["critical_function"] == "expand_mat" for r in dil)
    base = next(r for r in dil if r["config"] == "baseline")
    assert (base["lut"], base["latency_cycles"]) == (133461, 609828)


def test_parse_recorded_nextpnr_log():
    """A recorded nextpnr-ice40 0.4 log (sparse-mul baseline in its serial shell, HX8K)."""
    log = (DATA / "nextpnr_ice40_sparse_baseline.log").read_text()
    assert flow.parse_fmax(log) == 62.34  # after routing, not the placer's 64.45
    util = flow.parse_util(log)
    assert (util["ICESTORM_LC"], util["ICESTORM_RAM"], util["SB_IO"]) == (543, 5, 4)
    assert flow.pnr_progress("Info: iter=1 wires=9 overused=120\nInfo: overused=7 x") == (
        "7 wires still overused")


RTLIL = """module \\sub
  wire width 4 input 1 \\x
end
module \\top
  wire width 1 input 0 \\start
  wire width 8 input 1 \\io_addr
  wire width 1 input 2 \\clk
  wire width 1 input 3 \\rst
  wire output 4 \\done
  wire width 20 output 5 \\io_rdata
  wire width 3 \\internal
end
"""


def test_rtlil_ports_of_top_only():
    assert flow.rtlil_ports(RTLIL) == [
        ("start", "input", 1), ("io_addr", "input", 8), ("clk", "input", 1),
        ("rst", "input", 1), ("done", "output", 1), ("io_rdata", "output", 20)]


def test_serial_shell_wires_every_port_bit():
    v = flow.serial_shell(flow.rtlil_ports(RTLIL))
    assert "module shell(input clk, input rst, input sin, output sout);" in v
    assert ".start(chain[0:0])" in v and ".io_addr(chain[8:1])" in v
    assert ".done(outs[0:0])" in v and ".io_rdata(outs[20:1])" in v
    assert "reg [8:0] chain;" in v and "fold[1] <= ^outs_r[20:16];" in v


def test_ice40_fit_limits():
    stat = "Number of cells: 9\n  SB_LUT4 8000\n  SB_DFFE 10\n  SB_DFF 5\n  SB_RAM40_4K 40\n"
    c = flow.ice40_counts(stat)
    assert (c["lut4"], c["dff"], c["bram"]) == (8000, 15, 40)
    why = flow.ice40_fit(c)
    assert "8000 LUT4 > 7680" in why and "40 block RAMs" in why
    assert flow.ice40_fit({"lut4": 700, "dff": 900, "bram": 32}) is None


def _mem(name, width, depth, writes, reads):
    cells = "".join(f'  cell $mem{kind}_v2 ${name}{k}\n    parameter \\MEMID "\\\\{name}"\n  end\n'
                    for k, kind in enumerate(["wr"] * writes + ["rd"] * reads))
    return f"  memory width {width} size {depth} \\{name}\n" + cells


def test_ice40_precheck_reads_the_memories():
    """Two write ports: flip-flops (the NTT's ping-pong RAMs); a ROM over the block RAMs (MQ)."""
    one = "module \\top\n" + _mem("ram_a", 12, 256, 2, 2) + "end\n"
    assert flow.ice40_precheck(one) is None  # 3072 DFF, 3072 + 2040 LUT4: could fit
    two = "module \\top\n" + _mem("ram_a", 12, 256, 2, 2) + _mem("ram_b", 12, 256, 2, 2) + "end\n"
    assert "2 ports (ram_a, ram_b: 6144 bits)" in flow.ice40_precheck(two)
    assert "10224 LUT4" in flow.ice40_precheck(two)
    rom = "module \\top\n" + _mem("f_mem", 5, 56448, 0, 1) + "end\n"
    assert "282240 bits of memory" in flow.ice40_precheck(rom)
    small = "module \\top\n" + _mem("m", 16, 256, 1, 1) + "end\n"
    assert flow.ice40_precheck(small) is None
