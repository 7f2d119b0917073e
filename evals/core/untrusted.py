"""Text the agent, a service or an error message wrote, made safe to show.

The report is posted as a PR comment under the bot's name and appended to the job summary; console
lines are parsed by the Actions runner. Such text must be shown, never obeyed: no HTML or Markdown
of its own (`</details><h2>pass</h2>`, `<img>`, links), no link GitHub would make of bare text (a
URL, `www.`, an issue reference `#123` or `GH-123`), no `@mention` that pings someone, no copy of
the report's hidden marker, no bidirectional control that makes it read otherwise than it is, and
no line that starts a workflow command (`::error`, `##[...]`).

Names a run's files carry into the report and the log (scenario names, part ids, the commit) are
validated against the patterns here where they are read (evals/records/model.py,
evals/grade/result.py), so a forged run.json cannot put a link or a second log line in them.
"""

from __future__ import annotations

import html
import re

# Markdown punctuation that works inline (the text never starts a line of the page): emphasis, links and
# images, code spans, table cells, strikethrough, issue references; escaped with a backslash, which
# GitHub renders as the plain character. `<`, `>` and `&` are HTML-escaped instead.
# An underscore inside a word (FLAG_THRESHOLD) never starts emphasis in GFM, so it stays as written.
_MARKDOWN = re.compile(r"([\\`*\[\]!#|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
# GitHub links @name and @org/team when the @ follows a non-word character; a zero-width space after
# the @ keeps the text readable and the mention unlinked.
_MENTION = re.compile(r"(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])")
ZWSP = "\u200b"
# GitHub makes links of bare text: `https://…` (any `scheme://`), `www.…`, and references `#123` /
# `GH-123` (cross-repository `owner/name#123` too); a zero-width space inside each keeps the text
# readable and the link unmade.
_AUTOLINK = re.compile(r"(?<=:)(?=//)|(?<=\bwww)(?=\.)|(?<=#)(?=\d)|(?<=\bGH)(?=-\d)", re.IGNORECASE)
# Bidirectional controls (embeddings, overrides, isolates, marks) reorder what a reader sees.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

# What a name a run's files carry may look like (checked where a run is read).
SCENARIO_NAME = r"^[a-z0-9][a-z0-9_-]{0,63}$"
PART_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$"
COMMIT = r"^[0-9a-f]{0,64}$"  # a git object id (or a prefix); "" outside git


def flat(text: object, limit: int) -> str:
    """One line, whitespace collapsed, bidirectional controls dropped, at most `limit` characters."""
    line = " ".join(_BIDI.sub("", str(text)).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def md_text(text: object, limit: int = 300) -> str:
    """Untrusted text as inert Markdown: one line, HTML-escaped, Markdown punctuation escaped,
    @mentions broken. Safe in a paragraph, a list item or a table cell."""
    return _inert(flat(text, limit))


def _inert(line: str) -> str:
    line = html.escape(_MARKDOWN.sub(r"\\\1", line), quote=False)
    return _AUTOLINK.sub(ZWSP, _MENTION.sub("@" + ZWSP, line))


def md_code(text: object, limit: int = 200) -> str:
    """Untrusted text inside a code span (shown verbatim, nothing rendered): one line, backticks
    replaced (a backtick would close the span), pipes escaped (a table would split the cell), and
    HTML comment openers broken so no copy of the report's hidden marker appears even here."""
    return _code(flat(text, limit))


def _code(line: str) -> str:
    line = line.replace("`", "'").replace("|", "\\|").replace("<!--", "<!-" + ZWSP + "-")
    return f"`{line}`" if line else ""


_CODE_SPAN = re.compile(r"`([^`]+)`")


def md_prose(text: object, limit: int = 300) -> str:
    """A sentence that may quote a command or a name in backticks (a verdict's reason, a notice):
    each `quoted` piece as an inert code span (`md_code`), the rest as `md_text`. Inert either way
    (a code span renders nothing, links no mention), and `evals baseline bless --run DIR` reads as
    code instead of as literal backticks. An unmatched backtick is shown as a character."""
    line = flat(text, limit)
    out, end = [], 0
    for match in _CODE_SPAN.finditer(line):
        out += [_inert(line[end : match.start()]), _code(match.group(1))]
        end = match.end()
    out.append(_inert(line[end:]))
    return "".join(out)


def console_lines(text: object, limit: int = 2000) -> str:
    """Multi-line untrusted text (an error message) for the console: each line made safe by
    `console_line`, so a newline in it can start a line but never a workflow command."""
    return "\n".join(console_line(line, limit) for line in str(text).splitlines() or [""])


def console_line(text: object, limit: int = 2000) -> str:
    """Untrusted text for a console line the Actions runner reads: one line (no newline can start a
    second one), no `##[` anywhere (the runner's old command syntax) and no leading `::` (its
    current one; the runner trims leading whitespace before looking)."""
    line = flat(text, limit).replace("##[", "#" + ZWSP + "#[")
    return "› " + line if line.startswith("::") else line
