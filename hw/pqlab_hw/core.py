"""The contract of a core module in `pqlab_hw/cores/` (discovered by `modules()`).

A core module defines:

  NAME: str                       short name of the core, e.g. "keccak-f1600"
  CRITICAL_OF: str                the scheme function it stands for in the FPGA study, e.g.
                                  "Dilithium expand_mat (Keccak + rejection sampling)"
  def variants() -> list[Variant] every configuration to simulate and synthesize
  def build(v: Variant)           an amaranth Elaboratable: the synthesizable top of `v`
                                  (ports as attributes; no simulation-only constructs)
  def check(v: Variant) -> int    simulates `v` cycle-accurately on inputs whose answers pqlab's
                                  Rust code computes (`ref.run`), raises AssertionError on any
                                  wrong output, and returns the latency in clock cycles of one
                                  operation (start to done) measured in that simulation

`config` is one of CONFIGS, the study's three design points: "baseline" (sequential),
"unrolled" (more hardware per cycle) and "pipelined" (a new operation accepted before the
previous one completes, or stages registered for a shorter clock period).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field

CONFIGS = ("baseline", "unrolled", "pipelined")


@dataclass(frozen=True)
class Variant:
    """One configuration of one core: what is simulated and synthesized as a unit."""

    core: str
    config: str
    params: dict = field(default_factory=dict, hash=False, compare=False)
    description: str = ""

    @property
    def id(self) -> str:
        extra = "-".join(f"{k}{v}" for k, v in sorted(self.params.items()))
        return f"{self.core}/{self.config}" + (f"/{extra}" if extra else "")

    def __post_init__(self):
        if self.config not in CONFIGS:
            raise ValueError(f"{self.core}: config {self.config!r} not in {CONFIGS}")


def modules():
    """Every core module in pqlab_hw/cores, in name order."""
    from . import cores

    found = []
    for info in sorted(pkgutil.iter_modules(cores.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        found.append(importlib.import_module(f"{cores.__name__}.{info.name}"))
    return found
