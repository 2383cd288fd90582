"""Reference answers computed by pqlab's own Rust code (crates/pqlab-hwref, one binary per core).

`run("keccak", "24")` runs `cargo run --release -q -p pqlab-hwref --bin keccak -- 24` from the
repository root (or the prebuilt binary in $PQLAB_HWREF_DIR when set) and returns its standard
output as a list of lines, each a list of ints (decimal tokens; 0x-prefixed tokens are hex).
Inputs are passed as arguments or, when long, on standard input (`stdin=`, same format).
"""

from __future__ import annotations

import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _command(binary: str) -> list[str]:
    prebuilt = os.environ.get("PQLAB_HWREF_DIR")
    if prebuilt:
        return [str(pathlib.Path(prebuilt) / binary)]
    return ["cargo", "run", "--release", "-q", "-p", "pqlab-hwref", "--bin", binary, "--"]


def run(binary: str, *args, stdin: list[list[int]] | None = None) -> list[list[int]]:
    text = None
    if stdin is not None:
        text = "".join(" ".join(str(x) for x in line) + "\n" for line in stdin)
    out = subprocess.run(
        _command(binary) + [str(a) for a in args],
        cwd=ROOT,
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [[int(t, 0) for t in line.split()] for line in out.splitlines() if line.strip()]
