"""Where a trial happens: a fresh world per trial, and the outcome graders read from it.

    backend     the `Backend` / `Environment` protocol every world implements, and the backends by name
    toolset     the agent's contract with any world: `Toolset`, `Envelope`, `ToolError`, `ok`, `fail`
    outcome     `Outcome`: the final state graders read, one shape whichever world made it
    paths       the one rule for a file path the agent chose: relative, inside, spelt one way
    treediff    differences between two file trees (which paths changed, the unified diff)
    fidelity    the fidelity table: per tool, its documentation, what is checked, known differences
    sandbox/    the embedded, deterministic world (mailbox, git-like repos, Notion tree) and the
                Composio-shaped tools that act on it (`sandbox/tools/`)
    live/       real GitHub, Notion and Gmail through PyGithub, notion-client and Composio

The outcome contract sits above both worlds so graders import it without depending on either.
Outside evals/world/ only its door is imported (backend, toolset, outcome, paths, treediff), never
a backend's own modules: tests/test_architecture.py holds that.
"""
