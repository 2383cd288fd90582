"""One module per RTL core (see pqlab_hw/core.py for the contract)."""
