"""Helpers every command's parser uses. Kept free of heavy imports: every command module imports
this at start-up, and `evals --help` should not pay for the pipeline (evals/commands/finish.py)."""

from __future__ import annotations

import argparse
from pathlib import Path


def root() -> Path:
    """Commands work on the project in the current directory (its evals.yaml, scenario/, baseline/)."""
    return Path.cwd()


def add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, help="config file (default: ./evals.yaml)")
