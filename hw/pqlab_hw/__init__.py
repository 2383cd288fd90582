"""pqlab's hardware lab: RTL of the schemes' critical kernels (Amaranth HDL), simulated against
pqlab's own Rust code and synthesized with the open tools (issue 19).

Layout:
  pqlab_hw/core.py      the contract every core module follows (Variant, discovery)
  pqlab_hw/ref.py       reference answers from pqlab (the `pqlab-hwref` binaries)
  pqlab_hw/cores/*.py   one module per core; discovered, never listed by hand
"""
