"""Where things are, for every test and support module: one definition, whatever folder a test is in."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent  # the checkout: evals/, scenario/, evals.yaml
FIXTURES = TESTS / "fixtures"  # recorded reference data: Composio schemas, GitHub's OpenAPI, webhooks
SNAPSHOTS = TESTS / "snapshots"  # golden reports (UPDATE_SNAPSHOTS=1 rewrites them)
