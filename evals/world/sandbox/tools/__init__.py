"""Composio-shaped tools the agent calls: same slugs, JSON-schema inputs, `{data, successful, error}`.

`base` is the contract (Tool, Toolkit, Toolset, envelopes), `github`/`gmail`/`notion` the sandbox
tools of each service, `catalogue.build()` joins them, and `toolset.SandboxToolset` binds them to a
World. Nothing is imported here, so importing the contract does not load the sandbox tools.
"""
