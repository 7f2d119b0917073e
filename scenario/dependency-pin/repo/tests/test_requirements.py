"""The house rule on dependencies: every requirement is pinned exactly, once."""

import re
from pathlib import Path

REQUIREMENTS = Path(__file__).resolve().parents[1] / "requirements.txt"
PIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\s*==\s*[0-9][0-9A-Za-z.+!-]*$")


def lines():
    out = []
    for raw in REQUIREMENTS.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def test_every_requirement_is_an_exact_pin():
    loose = [line for line in lines() if not PIN.match(line)]
    assert not loose, loose


def test_no_package_is_listed_twice():
    names = [re.split(r"\s*==", line)[0].lower().replace("_", "-") for line in lines()]
    assert len(names) == len(set(names)), names
