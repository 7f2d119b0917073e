"""Where a trial happens: a fresh world per trial, and the outcome graders read from it.

    backend     the `Backend` / `Environment` protocol every world implements, and the backends by name
    outcome     `Outcome`: the final state graders read, one shape whichever world made it
    treediff    differences between two file trees (which paths changed, the unified diff)
    sandbox/    the embedded, deterministic world (mailbox, git-like repos, Notion tree) and the
                Composio-shaped tools that act on it (`sandbox/tools/`)
    live/       real GitHub, Notion and Gmail through PyGithub, notion-client and Composio

The outcome contract sits above both worlds so graders import it without depending on either.
"""
