"""Puts hw/ on the import path so that the tests import `pqlab_hw` from the checkout."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
