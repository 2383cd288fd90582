"""Shared fixtures of the pqlab Python tests: where the test vectors are, and readers for them.

The vectors live beside the checkout in ``shared/vectors`` (DESIGN.md, section 7), or where
``PQLAB_VECTORS`` points. Under CI (``CI=true``) a missing folder is a failure; elsewhere the
tests that need it are skipped with a message.
"""

import json
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def vectors_dir() -> pathlib.Path:
    env = os.environ.get("PQLAB_VECTORS")
    return pathlib.Path(env) if env else REPO.parent / "shared" / "vectors"


@pytest.fixture(scope="session")
def vectors() -> pathlib.Path:
    path = vectors_dir()
    if not (path / "README.md").is_file():
        message = f"test vectors not found at {path} (set PQLAB_VECTORS)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def load_json(path: pathlib.Path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def acvp_cases(vectors: pathlib.Path, name: str):
    """Yields (group, prompt test, expected test) of an ACVP vector set, matched by tcId."""
    prompt = load_json(vectors / "acvp" / name / "prompt.json")
    expected = load_json(vectors / "acvp" / name / "expectedResults.json")
    results = {
        t["tcId"]: t for g in expected["testGroups"] for t in g["tests"]
    }
    for group in prompt["testGroups"]:
        for test in group["tests"]:
            yield group, test, results[test["tcId"]]


def h(text: str) -> bytes:
    return bytes.fromhex(text)
