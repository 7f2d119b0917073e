"""The live world: real GitHub (PyGithub), Notion (notion-client) and Gmail plus the agent's tools
(Composio), seeded and snapshotted in the same shapes as the sandbox. See docs/live.md.

    backend       `LiveBackend` / `LiveEnvironment`: the live world behind the world protocol
    config        the live accounts, keys and persona addresses, from the environment
    clients       authenticated PyGithub and notion-client clients, and their health checks
    github_repo   a trial's repository: create, seed, snapshot, delete
    notion_pages  a trial's Notion pages: create, seed, snapshot, archive
    gmail         seeding the inbox and reading what the agent sent, through Composio
    composio_api  the Composio SDK at pinned toolkit versions; `schema_diff` compares its schemas
    tools         the agent's live toolset; `polling`, `naming`, `seed_labels`, `janitor` help them

Nothing is re-exported here: import from the module that defines a name.
"""
