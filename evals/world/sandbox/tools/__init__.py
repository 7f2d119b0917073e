"""Composio-shaped tools the agent calls: same slugs, JSON-schema inputs, `{data, successful, error}`.

    base           how the sandbox defines a tool: `Tool`, `Toolkit`, the parameter base
    github         GitHub tools over sandbox repos
    gmail          Gmail tools over the sandbox mailbox
    gmail_search   Gmail's search syntax (every documented operator) over the sandbox mailbox
    notion         Notion page and block tools over the sandbox workspace
    notion_rows    Notion database tools: boards, registers and trackers are databases
    notion_tree    the workspace as the Notion API shows it: where a page, block or database is
    notion_blocks  the block content the append tools take: nested children, every rich text type,
                   unknown keys refused in Notion's words
    notion_values  a database row's property values, as the tools write them and Notion checks them
    catalogue      `build()`: every service module's toolkit, joined by slug
    faults         injected tool failures: the 502s, 503s and timeouts a real toolset gives now and then
    toolset        `SandboxToolset`: the catalogue bound to one trial's `World`, faults answered in place

The contract every world serves the agent (envelope, toolset, tool error) is `evals.world.toolset`.
Nothing is imported here, so importing one module does not load the sandbox tools.
"""
