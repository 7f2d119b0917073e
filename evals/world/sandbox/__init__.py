"""The sandbox world: a typed, deterministic, JSON-serialisable mailbox, git-like repos and Notion tree.

    model        `World` and its typed state (messages, repos, commits, pulls, pages, blocks)
    git          content-addressed commits and trees: derived shas, never random
    seed         `seed(scenario, trial) -> World`: the scenario's starting state
    snapshot     `outcome(world) -> Outcome`: the state graders read, and what was seeded
    environment  `SandboxBackend` / `SandboxEnvironment`: the sandbox behind the world protocol
    tools/       the Composio-shaped tools the agent calls on this world

Nothing is re-exported here: import from the module that defines a name.
"""
