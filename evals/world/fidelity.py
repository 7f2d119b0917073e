"""How far each tool of the sandbox is known to match the live service: the fidelity table.

Why one table in code: a prompt tuned offline is only worth what the sandbox's answers are worth
live, so for every tool the reader needs to know where its parameters come from, what the sandbox
checks of a call, where its result's shape comes from, and what it still does differently. The
table is data here so that `evals tools check` can report against it (a tool's known differences
printed beside any drift it finds, a tool without a row counted as a difference), and
docs/tools.md shows it rendered (`markdown()`; a test holds the two equal).

Sources: Composio's toolkit docs pages at the pinned versions (Gmail 20260721_00, Notion
20260915_00), Composio's public schema dump of January 2026 for GitHub (no dated GitHub docs page
was found), and the services' own API references for what a result holds when Composio declares
only its envelope.
"""

from __future__ import annotations

from dataclasses import dataclass

GMAIL_DOCS = "[Composio Gmail](https://docs.composio.dev/toolkits/gmail) 20260721_00"
NOTION_DOCS = "[Composio Notion](https://docs.composio.dev/toolkits/notion) 20260915_00"
GITHUB_DOCS = "[Composio dump](https://github.com/ComposioHQ/composio) latest (2026-01)"
SCHEMA = "schema, field by field"
GMAIL_DUMP = "Composio dump (0_1, older)"
NOTION_DUMP = "Composio dump (20260113_00, older)"
GITHUB_OUT = "Composio dump (`data` free object)"
GITHUB_DIFF = "no rate limits, auth scopes or webhooks; one default branch"
NO_ATTACH = "no attachments (an attachment is refused)"
MAIL_DIFF = f"{NO_ATTACH}; no user labels; categories: received mail is Primary"
MENTIONS = "a mention reads back as text"
ROW_PAGE = "Notion page object"


@dataclass(frozen=True)
class Fidelity:
    """One tool's row: who calls it, where it is documented (link, version), what the sandbox checks
    of a call, where the result's shape comes from, and what is known to differ from live."""

    slug: str
    called_by: str
    documented: str
    input: str
    output: str
    differences: str


def _github(slug: str, output: str = GITHUB_OUT, differences: str = GITHUB_DIFF) -> Fidelity:
    return Fidelity(slug, "agent", GITHUB_DOCS, SCHEMA + "; paths as GitHub's", output, differences)


def _gmail(slug: str, output: str, differences: str, by: str = "agent", checks: str = SCHEMA) -> Fidelity:
    return Fidelity(slug, by, GMAIL_DOCS, checks, output, differences)


def _notion(slug: str, output: str, differences: str, checks: str = SCHEMA) -> Fidelity:
    return Fidelity(slug, "agent", NOTION_DOCS, checks, output, differences)


SEARCH = SCHEMA + "; Gmail's search syntax, every operator"
CONTENT = SCHEMA + "; block content as Notion checks it (nesting, rich text, unknown keys)"

TABLE: tuple[Fidelity, ...] = (
    _github("GITHUB_COMPARE_TWO_COMMITS", differences=GITHUB_DIFF + "; a rename is removed + added"),
    _github(
        "GITHUB_CREATE_A_PULL_REQUEST",
        differences=GITHUB_DIFF + "; `draft` opens a ready PR; no issue conversion",
    ),
    _github("GITHUB_CREATE_A_REFERENCE"),
    _github("GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS", differences=GITHUB_DIFF + "; text files only"),
    _github("GITHUB_GET_A_BRANCH", differences=GITHUB_DIFF + "; no protection rules"),
    _github("GITHUB_GET_A_PULL_REQUEST", differences=GITHUB_DIFF + "; no checks, reviews or comments"),
    _github("GITHUB_GET_A_TREE"),
    _github("GITHUB_GET_REPOSITORY_CONTENT", differences=GITHUB_DIFF + "; text files only"),
    _github("GITHUB_LIST_BRANCHES", differences=GITHUB_DIFF + "; list key `details` designed"),
    _github("GITHUB_LIST_COMMITS", differences=GITHUB_DIFF + "; list key `details` designed"),
    _github("GITHUB_LIST_PULL_REQUESTS", differences=GITHUB_DIFF + "; which fields are kept is designed"),
    _github("GITHUB_LIST_PULL_REQUESTS_FILES", differences=GITHUB_DIFF + "; list key `details` designed"),
    _gmail("GMAIL_ADD_LABEL_TO_EMAIL", GMAIL_DUMP, "live only (seeding)", "harness (live)"),
    _gmail("GMAIL_CREATE_LABEL", GMAIL_DUMP, "live only (seeding)", "harness (live)"),
    _gmail(
        "GMAIL_DELETE_LABEL", "designed: Gmail API labels.delete", "live only (seeding)", "harness (live)"
    ),
    _gmail("GMAIL_FETCH_EMAILS", GMAIL_DUMP, MAIL_DIFF + "; newest first, no relevance order", checks=SEARCH),
    _gmail("GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", GMAIL_DUMP, NO_ATTACH + "; plain-text body as its HTML part"),
    _gmail("GMAIL_FETCH_MESSAGE_BY_THREAD_ID", GMAIL_DUMP, NO_ATTACH),
    _gmail("GMAIL_LIST_LABELS", GMAIL_DUMP, "live only (seeding)", "harness (live)"),
    _gmail("GMAIL_LIST_THREADS", GMAIL_DUMP, MAIL_DIFF, checks=SEARCH),
    _gmail("GMAIL_MOVE_TO_TRASH", GMAIL_DUMP, "none known"),
    _gmail("GMAIL_REPLY_TO_THREAD", GMAIL_DUMP, NO_ATTACH + "; nothing is delivered to anyone"),
    _gmail(
        "GMAIL_SEND_EMAIL",
        "designed: REPLY_TO_THREAD's 0_1 result",
        NO_ATTACH + "; `from_email` only the mailbox's own address",
    ),
    _gmail(
        "GMAIL_UNTRASH_MESSAGE",
        "designed: Gmail API messages.untrash",
        "live only (seeding)",
        "harness (live)",
    ),
    _notion(
        "NOTION_APPEND_TABLE_BLOCKS",
        "designed: as APPEND_TEXT_BLOCKS",
        MENTIONS,
        CONTENT + "; `tables[].rows[].cells` designed",
    ),
    _notion(
        "NOTION_APPEND_TASK_BLOCKS",
        "designed: as APPEND_TEXT_BLOCKS",
        MENTIONS + "; callout icon not kept",
        CONTENT + "; `children[]` designed",
    ),
    _notion("NOTION_APPEND_TEXT_BLOCKS", NOTION_DUMP, MENTIONS + "; colors not kept", CONTENT),
    _notion("NOTION_ARCHIVE_NOTION_PAGE", NOTION_DUMP, "none known"),
    _notion("NOTION_CREATE_NOTION_PAGE", f"designed: {ROW_PAGE}", "markdown: CommonMark blocks only"),
    _notion("NOTION_DELETE_BLOCK", NOTION_DUMP, "none known"),
    _notion("NOTION_FETCH_BLOCK_CONTENTS", "designed: Notion API block children", MENTIONS),
    _notion(
        "NOTION_FETCH_DATABASE", "designed: Notion API database (2025-09-03)", "one data source per database"
    ),
    _notion("NOTION_FETCH_ROW", f"designed: {ROW_PAGE}", "none known"),
    _notion(
        "NOTION_INSERT_ROW_DATABASE",
        f"designed: {ROW_PAGE}",
        "content: text-like blocks only",
        SCHEMA + "; `child_blocks[]` designed",
    ),
    _notion(
        "NOTION_QUERY_DATABASE",
        "designed: Notion API data source query",
        "`sorts` only: no `filter` parameter at this version",
    ),
    _notion("NOTION_RETRIEVE_PAGE", f"designed: {ROW_PAGE}", "none known"),
    _notion(
        "NOTION_SEARCH_NOTION_PAGE",
        "designed: Notion API search",
        "titles only; `database` objects (filter_value's name), not 2025-09-03 `data_source`",
    ),
    _notion("NOTION_UPDATE_BLOCK", "designed: Notion API block", "text-like blocks only, as documented"),
    _notion("NOTION_UPDATE_PAGE", f"designed: {ROW_PAGE}", "none known"),
    _notion("NOTION_UPDATE_ROW_DATABASE", f"designed: {ROW_PAGE}", "none known"),
)
ROWS = {row.slug: row for row in TABLE}


def markdown() -> str:
    """The table as docs/tools.md shows it."""
    lines = [
        "| tool | by | documented (link, version) | input checked | output shape | known differences |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| `{r.slug}` | {r.called_by} | {r.documented} | {r.input} | {r.output} | {r.differences} |"
        for r in TABLE
    ]
    return "\n".join(lines)


def known(slug: str) -> str | None:
    """A tool's known differences, or None when the table has no row for it."""
    row = ROWS.get(slug)
    return row.differences if row is not None else None
