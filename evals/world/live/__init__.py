"""The live world: real GitHub (PyGithub), Notion (notion-client) and Gmail plus the agent's tools
(Composio), seeded and snapshotted in the same shapes as the sandbox. See docs/live.md.

    backend       `LiveBackend` / `LiveEnvironment`: the live world behind the world protocol
    config        the live accounts, keys and persona addresses, from the environment
    clients       authenticated PyGithub and notion-client clients, and their health checks
    github_repo   a trial's repository: create, seed, snapshot, delete
    notion_pages  a trial's Notion pages: create, seed, snapshot, archive
    gmail         seeding the inbox and reading what the agent sent, through Composio
    seed_labels   the Gmail labels that mark the mail `seed-inbox` delivered, one per task instance
    composio_api  the Composio SDK at pinned toolkit versions, the configured user and toolkits
    tools         the agent's live toolset: Composio's own tools, for the sandbox catalogue's slugs
    naming        the names of what a live trial creates: one convention, so leftovers can be found
    polling       bounded waiting for services that are only eventually consistent
    janitor       find and remove what live trials left behind, by naming convention alone
    schema_diff   field-by-field differences between a Composio tool's schema and the sandbox's
    tools_check   `evals tools check`: the sandbox's tool schemas against what Composio serves
    output_check  `evals tools check --outputs`: what Composio's tools return against the sandbox's
    tour          a tour of every tool on the trial-run world, one call or more per tool

Nothing is re-exported here: import from the module that defines a name.
"""
