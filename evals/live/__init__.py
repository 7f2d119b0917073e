"""The live world: real GitHub (PyGithub), Notion (notion-client) and Gmail plus the agent's tools
(Composio), seeded and snapshotted in the same shapes as the sandbox. See README, "Live mode"."""

from evals.live.backend import LiveBackend, LiveEnvironment

__all__ = ["LiveBackend", "LiveEnvironment"]
