#!/usr/bin/env python3
"""pqlab's hardware lab (issue 19): simulate every RTL core against pqlab, synthesize it with
Yosys for 7-series, estimate its clock, and print the FPGA study's table with its figures beside.

    python3 hw/lab.py [--quick] [--json F] [--html F] [--markdown F] [--cores a,b] [--configs c,d]
                       [--no-pnr] [--pnr-full]

Exit status: 0 all variants passed, 1 a simulation or synthesis failed, 2 a tool is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _write(path: pathlib.Path, text: str) -> None:
    """Writes through a temporary file in the same folder, then renames (nothing half-written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="lab.py", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="first baseline variant of each core; iCE40 place and route of one "
                   "small core only")
    p.add_argument("--json", default=str(HERE / "results.json"), help="JSON report [hw/results.json]")
    p.add_argument("--html", default=None, help="also write a self-contained HTML table")
    p.add_argument("--markdown", default=None, help="also write the table as Markdown")
    p.add_argument("--cores", default="", help="comma-separated core names (default: all)")
    p.add_argument("--configs", default="", help="baseline,unrolled,pipelined (default: all)")
    p.add_argument("--no-pnr", action="store_true", help="skip nextpnr-ice40")
    p.add_argument("--pnr-timeout", type=float, default=3600,
                   help="wall-clock seconds per nextpnr run (CPU time is bounded apart)")
    p.add_argument("--pnr-full", action="store_true",
                   help="also place and route designs over 60 %% of the HX8K (router2, bounded)")
    p.add_argument("--keep", default=None, help="keep the synthesis files under this folder")
    p.add_argument("--jobs", type=int, default=None,
                   help="variants run at a time, each in its own process (default: one per CPU)")
    args = p.parse_args(argv)
    try:
        import amaranth  # noqa: F401
    except ImportError:
        print("lab.py: error: the amaranth package is not installed "
              "(pip install -r hw/requirements.txt)", file=sys.stderr)
        return 2
    from pqlab_hw import flow, report

    split = lambda s: [x for x in s.split(",") if x] or None  # noqa: E731
    try:
        result = flow.run(split(args.cores), split(args.configs), quick=args.quick,
                          pnr=not args.no_pnr, pnr_timeout=args.pnr_timeout, pnr_full=args.pnr_full,
                          keep=args.keep, jobs=args.jobs,
                          log=lambda m: print(m, file=sys.stderr, flush=True))
    except flow.ToolMissing as e:
        print(f"lab.py: error: {e}", file=sys.stderr)
        return 2
    if not result["results"]:
        print("lab.py: error: no core matches --cores/--configs", file=sys.stderr)
        return 2
    result["study"] = report.study_rows()
    result["study_file"] = f"../shared/papers/{report.STUDY_FILE}" if result["study"] else None
    _write(pathlib.Path(args.json), json.dumps(result, indent=1) + "\n")
    if args.html:
        _write(pathlib.Path(args.html), report.html_page(result))
    if args.markdown:
        _write(pathlib.Path(args.markdown), report.markdown(result))
    print(report.text_table(result))
    print(f"\nJSON: {args.json}" + (f", HTML: {args.html}" if args.html else ""))
    return 0 if all(r["ok"] for r in result["results"]) else 1


if __name__ == "__main__":
    sys.exit(main())
