"""The hardware lab's report: the study's table layout (Tables 3, 6 and 8 of the FPGA study in
../shared/papers/fpga-hls-qtesla-dilithium-mqdss.json: flip-flops, LUTs, clock period, latency,
LAP = LUT x cycles) for our kernels, with the study's published figures for the scheme whose
critical function each kernel is, and a self-contained HTML page of the same."""

from __future__ import annotations

import html
import json
import os
import pathlib

from .core import CONFIGS

STUDY_FILE = "fpga-hls-qtesla-dilithium-mqdss.json"
# The study's signing tables per configuration (Virtex-7, level 1/2): Tables 3, 6 and 8.
STUDY_TABLES = {"baseline": "Table 3", "unrolled": "Table 6", "pipelined": "Table 8"}
SCHEMES = {"dilithium": "dilithium-r2", "qtesla": "qtesla", "mqdss": "mqdss"}
KERNEL_NOTE = (
    "Ours are RTL kernels (each one critical function), NOT whole schemes: the study's rows "
    "are the whole crypto_sign of the scheme (HLS, Virtex-7); compare shapes, not sizes."
)


def study_path() -> pathlib.Path | None:
    """../shared/papers/ beside the checkout (or $PQLAB_SHARED/papers)."""
    root = pathlib.Path(__file__).resolve().parents[2]
    shared = os.environ.get("PQLAB_SHARED")
    for base in ([pathlib.Path(shared)] if shared else []) + [root.parent / "shared"]:
        p = base / "papers" / STUDY_FILE
        if p.exists():
            return p
    return None


def schemes_of(critical_of: str) -> set[str]:
    """The study's schemes a kernel's CRITICAL_OF names."""
    low = critical_of.lower()
    return {sid for word, sid in SCHEMES.items() if word in low}


def kernel_label(r: dict) -> str:
    """The core's name and its parameters (the variant id without the configuration)."""
    parts = r["variant"].split("/")
    return " ".join([parts[0]] + parts[2:])


def study_rows(path: pathlib.Path | None = None) -> list[dict]:
    """The study's signing figures per configuration and scheme (Tables 3, 6, 8) and its
    critical functions (Table 5)."""
    path = path or study_path()
    if path is None:
        return []
    data = json.loads(path.read_text())
    tables = {t["id"]: t for t in data["tables"]}
    critical = {r[1]: r[2] for r in tables.get("Table 5", {}).get("rows", [])}
    rows = []
    for config, tid in STUDY_TABLES.items():
        t = tables.get(tid)
        if t is None:
            continue
        cols = t["columns"]
        for r in t["rows"]:
            rec = dict(zip(cols, r))
            rows.append(
                {
                    "table": tid,
                    "op": "crypto_sign",
                    "config": config,
                    "scheme_id": rec["scheme_id"],
                    "critical_function": critical.get(rec["scheme_id"]),
                    "security_level": rec.get("security_level"),
                    "ff": rec["flip_flops"],
                    "lut": rec["luts"],
                    "clock_period_ns": rec["clock_period_ns"],
                    "latency_cycles": rec["latency_cycles"],
                    "lap": rec["luts"] * rec["latency_cycles"],
                    "platform": t.get("platform"),
                }
            )
    return rows


def _fmt(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


def _lap(x) -> str:
    return "-" if x is None else f"{x:.2e}"


HEAD = ["kernel", "FF", "LUT", "DSP", "BRAM", "cycles", "clk ns (xc7 est)", "LUT lvls",
        "fmax MHz (iCE40)", "LAP (LUT x cyc)"]  # fmt: skip


def _row_cells(r: dict) -> list[str]:
    if r.get("error"):
        return [kernel_label(r), "FAILED: " + r["error"][:80]] + [""] * (len(HEAD) - 2)
    ice = r.get("ice40", {})
    fmax = ice.get("fmax_mhz")
    ice_txt = _fmt(fmax) if fmax else {False: "no fit", True: "-"}.get(ice.get("fits"), "-")
    if not fmax and ("routing not finished" in ice.get("reason", "")
                     or "not placed and routed" in ice.get("reason", "")):
        ice_txt = "fits, unrouted"
    return [
        kernel_label(r), _fmt(r["ff"]), _fmt(r["lut"]), _fmt(r["dsp"]), _fmt(r["bram"]),
        _fmt(r["cycles"]), _fmt(r["xc7_period_ns_est"]), _fmt(r["lut_levels"]), ice_txt,
        _lap(r["lap_lut"]),
    ]  # fmt: skip


def _study_cells(s: dict) -> list[str]:
    return [
        f"study: {s['scheme_id']} sign ({s['critical_function']})", _fmt(s["ff"]), _fmt(s["lut"]),
        "-", "-", _fmt(s["latency_cycles"]), _fmt(s["clock_period_ns"]), "-", "-", _lap(s["lap"]),
    ]  # fmt: skip


def sections(report: dict) -> list[tuple[str, list[list[str]]]]:
    """One section per configuration, as the study's Tables 3 (baseline), 6 (unrolled) and 8
    (pipelined): our kernels, then the study's rows for the schemes they stand for."""
    study = report.get("study", [])
    out = []
    for config in CONFIGS:
        rows = [r for r in report["results"] if r["config"] == config]
        if not rows:
            continue
        lines = [_row_cells(r) for r in rows]
        schemes = set().union(*(schemes_of(r["critical_of"]) for r in rows))
        lines += [_study_cells(s) for s in study if s["config"] == config and s["scheme_id"] in schemes]
        title = f"{config} (study: {STUDY_TABLES[config]}, crypto_sign, Virtex-7)"
        out.append((title, lines))
    return out


def ice40_notes(report: dict) -> list[str]:
    """One line per variant that went to the iCE40 flow: its size in the 4-pin shell and what
    became of it (fmax, or why there is none)."""
    out = []
    for r in report["results"]:
        ice = r.get("ice40") or {}
        if r.get("error") or "not run" in ice.get("reason", "not run"):
            continue
        size = (f"{ice['lut4']} LUT4, {ice['dff']} DFF, {ice['bram']} RAM4K: "
                if "lut4" in ice else "")
        got = (f"{ice['fmax_mhz']} MHz after routing ({ice.get('pnr_s')} s)"
               if ice.get("fmax_mhz") else ice.get("reason", ""))
        out.append(f"{r['variant']}: {size}{got}")
    return out


def text_table(report: dict) -> str:
    parts = [KERNEL_NOTE, "Clock: " + report["clock_assumption"] + "."]
    for title, lines in sections(report):
        widths = [max(len(x) for x in col) for col in zip(HEAD, *lines)]
        fmt = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths))  # noqa: E731
        parts += ["", f"== {title}", fmt(HEAD), fmt(["-" * w for w in widths])]
        parts += [fmt(c) for c in lines]
    notes = ice40_notes(report)
    if notes:
        parts += ["", f"== iCE40 ({report.get('ice40_device', '')}, core in a 4-pin serial shell)"]
        parts += notes
    return "\n".join(parts)


def markdown(report: dict) -> str:
    """The same sections as Markdown tables (for hw/README.md)."""
    parts = [f"*{KERNEL_NOTE}*"]
    for title, lines in sections(report):
        parts += ["", f"**{title}**", "", "| " + " | ".join(HEAD) + " |"]
        parts.append("|" + "|".join(" --- " for _ in HEAD) + "|")
        parts += ["| " + " | ".join(c.replace("|", "/") for c in cells) + " |" for cells in lines]
    notes = ice40_notes(report)
    if notes:
        parts += ["", f"**iCE40** ({report.get('ice40_device', '')}, each core in a 4-pin serial "
                  "shell)", ""]
        parts += [f"* `{n.split(': ', 1)[0]}`: {n.split(': ', 1)[1]}" for n in notes]
    return "\n".join(parts) + "\n"


def html_page(report: dict) -> str:
    e = html.escape
    body = [f"<p><b>{e(KERNEL_NOTE)}</b></p>", f"<p>Clock: {e(report['clock_assumption'])}.</p>"]
    for title, lines in sections(report):
        body.append(f"<h2>{e(title)}</h2><table><tr>" + "".join(f"<th>{e(h)}</th>" for h in HEAD))
        for cells in lines:
            cls = ' class="study"' if cells[0].startswith("study:") else ""
            body.append(f"<tr{cls}>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
        body.append("</table>")
    tools = ", ".join(f"{k} {v}" for k, v in report.get("tools", {}).items())
    body.append(f"<p>Tools: {e(tools)}</p>")
    style = (
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:3px 8px;text-align:right}"
        "td:first-child{text-align:left}tr.study{background:#eef}"
    )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>pqlab hardware lab</title>"
        f"<style>{style}</style></head><body><h1>pqlab hardware lab</h1>"
        + "\n".join(body)
        + "</body></html>\n"
    )
