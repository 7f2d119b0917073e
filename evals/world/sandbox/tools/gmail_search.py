"""Gmail's search syntax over the sandbox mailbox, as Gmail documents it.

Why a parser: an agent that filters by recency or category (`newer_than:7d category:primary`) must
find the same mail offline as live. An operator the sandbox read as a literal word found nothing,
so a sensible prompt change read as a regression. Now every operator of Gmail's search syntax
(support.google.com/mail/answer/7190, and the Gmail API guide "Search and filter messages") is
either answered as Gmail answers it or refused with an error naming it; none is a silent word search.

The grammar (lark, LALR): terms side by side are ANDed (`AND` may be written), `OR` (upper case)
or `{a b}` is any of them, `-` negates, parentheses group, `"..."` is a phrase, `+word` an exact
word, `a AROUND n b` two words at most n words apart, `field:value` an operator, and
`field:(...)` applies the operator to every term of the group (`subject:(dinner movie)`). A
`name:value` whose name is not a Gmail operator is text, as Gmail reads `re:meeting`.

What the operators read: words and phrases match whole words (Gmail does not match `meet` in
`meeting`) of the subject, body and addresses; `from`/`to`/`cc`/`bcc`/`deliveredto` match an
address or consecutive parts of it (`from:acme.example`), `me` is the mailbox owner, and `to`
also matches Cc and Bcc, as Gmail's does; dates (`after`/`before`/`older`/`newer`) are midnight
PST (UTC-8) on that date, or epoch seconds, as the Gmail API documents; `older_than`/`newer_than`
count d, m or y back from the sandbox clock; sizes are the message's RFC 2822 bytes. This mailbox
holds no attachment, mailing-list header, snoozed, muted or chat message and no category label
but Primary (received mail without a category is Primary), so those operators are answered, and
match nothing, as Gmail would for this mailbox.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError, VisitError

from evals.world.sandbox.model import Message
from evals.world.toolset import ToolError

GRAMMAR = r"""
?start: query?
?query: either (_AND? either)*
?either: near (_OR near)*
?near: unary (_AROUND WORD unary)?
?unary: "-" unary -> negate
      | "+" WORD -> exact
      | atom
?atom: "(" query ")"
     | "{" unary+ "}" -> any_of
     | FIELD value -> field
     | PHRASE -> phrase
     | WORD -> word
?value: WORD -> word
      | PHRASE -> phrase
      | "(" query ")"
      | "{" unary+ "}" -> any_of

FIELD.2: /[A-Za-z_][A-Za-z0-9_]*:(?=[^\s])/
PHRASE: /"[^"]*"/
WORD: /[^\s(){}"+\-][^\s(){}"]*/
_AND: "AND"
_OR: "OR"
_AROUND: "AROUND"
%ignore /\s+/
"""

PST = timezone(timedelta(hours=-8), "PST")  # "interpreted as midnight on that date in the PST timezone"
SYSTEM_LABELS = {
    "INBOX", "SENT", "DRAFT", "TRASH", "SPAM", "UNREAD", "STARRED", "IMPORTANT", "CHAT",
}  # fmt: skip
ADDRESS_FIELDS = ("from", "to", "cc", "bcc", "deliveredto")
DATE_FIELDS = ("after", "before", "older", "newer")
AGE_FIELDS = ("older_than", "newer_than")
SIZE_FIELDS = ("size", "larger", "smaller")
# Nothing in this mailbox has an attachment, a List-Id header or a snoozed, muted or chat state.
EMPTY_HERE = ("filename", "list")
OPERATORS = {
    *ADDRESS_FIELDS, *DATE_FIELDS, *AGE_FIELDS, *SIZE_FIELDS, *EMPTY_HERE,
    "subject", "label", "in", "is", "has", "category", "rfc822msgid",
}  # fmt: skip
IS_VALUES: dict[str, Callable[[list[str]], bool]] = {
    "unread": lambda labels: "UNREAD" in labels,
    "read": lambda labels: "UNREAD" not in labels,
    "starred": lambda labels: "STARRED" in labels,
    "important": lambda labels: "IMPORTANT" in labels,
    "snoozed": lambda labels: "SNOOZED" in labels,
    "muted": lambda labels: "MUTED" in labels,
    "chat": lambda labels: "CHAT" in labels,
}
STARS = (
    "yellow-star", "orange-star", "red-star", "purple-star", "blue-star", "green-star", "red-bang",
    "orange-guillemet", "yellow-bang", "green-check", "blue-info", "purple-question",
)  # fmt: skip
ATTACHMENT_KINDS = ("attachment", "drive", "document", "spreadsheet", "presentation")
CATEGORIES = {
    "primary": "CATEGORY_PERSONAL",
    "social": "CATEGORY_SOCIAL",
    "promotions": "CATEGORY_PROMOTIONS",
    "updates": "CATEGORY_UPDATES",
    "forums": "CATEGORY_FORUMS",
    "reservations": "CATEGORY_RESERVATIONS",
    "purchases": "CATEGORY_PURCHASES",
}
YOUTUBE = re.compile(r"https?://(?:www\.)?(?:youtube\.com/watch|youtu\.be/)", re.IGNORECASE)


@dataclass(frozen=True)
class Term:
    """One search term: a word or phrase (`field` None), or `field:value`."""

    field: str | None
    value: str
    exact: bool = False


@dataclass(frozen=True)
class All:
    parts: tuple[Node, ...]


@dataclass(frozen=True)
class AnyOf:
    parts: tuple[Node, ...]


@dataclass(frozen=True)
class Not:
    part: Node


@dataclass(frozen=True)
class Near:
    left: Term
    right: Term
    distance: int


Node = Term | All | AnyOf | Not | Near


@dataclass(frozen=True)
class Mailbox:
    """What a query is answered against beyond the message: the owner (`me`), the sandbox clock's
    now, and the message's size and Message-ID (the tools module knows the RFC 2822 form)."""

    owner: str
    now: datetime
    size: Callable[[Message], int]
    message_id: Callable[[Message], str]  # the Message-ID header, angle brackets included


def _scoped(node: Node, name: str) -> Node:
    """`field:(group)`: the operator applied to every bare term of the group."""
    if isinstance(node, Term):
        return replace(node, field=name) if node.field is None else node
    if isinstance(node, Not):
        return Not(_scoped(node.part, name))
    if isinstance(node, Near):
        return node
    return type(node)(tuple(_scoped(p, name) for p in node.parts))


@v_args(inline=True)
class _Tree(Transformer[Token, Node]):
    """Lark's parse tree into the query's nodes."""

    def word(self, token: Token) -> Term:
        return Term(None, str(token))

    def phrase(self, token: Token) -> Term:
        return Term(None, str(token)[1:-1], exact=True)

    def exact(self, token: Token) -> Term:
        return Term(None, str(token), exact=True)

    def negate(self, part: Node) -> Node:
        return Not(part)

    def query(self, *parts: Node) -> Node:
        return All(parts)

    def either(self, *parts: Node) -> Node:
        return AnyOf(parts)

    def any_of(self, *parts: Node) -> Node:
        return AnyOf(parts)

    def near(self, left: Node, distance: Token, right: Node) -> Node:
        if not (isinstance(left, Term) and isinstance(right, Term) and left.field is None is right.field):
            raise ToolError("Invalid query: AROUND joins two words or phrases")
        if not str(distance).isdigit():
            raise ToolError(f"Invalid query: AROUND takes a number of words, not {distance!r}")
        return Near(left, right, int(distance))

    def field(self, name: Token, value: Node) -> Node:
        field = str(name)[:-1].lower()
        if field in OPERATORS:
            return _scoped(value, field)
        if isinstance(value, Term) and value.field is None:  # not an operator: text, as Gmail reads it
            return Term(None, f"{name}{value.value}", exact=value.exact)
        return All((Term(None, str(name)[:-1]), value))

    def start(self, *parts: Node) -> Node:
        return parts[0] if parts else All(())


@cache
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)


def parse(query: str) -> Node:
    """The query's tree; a query Gmail would not parse is a ToolError saying where. A query nested
    past MAX_DEPTH (thousands of `-` or parentheses: what an agent under test may send) is refused
    the same way, so neither parsing nor the per-message test can exhaust Python's stack."""
    try:
        tree = _Tree().transform(_parser().parse(query))
    except VisitError as exc:
        if isinstance(exc.orig_exc, ToolError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, RecursionError):
            raise ToolError(f"Invalid query: nested deeper than {MAX_DEPTH} levels") from None
        raise
    except LarkError as exc:
        detail = str(exc).splitlines()[0]
        raise ToolError(f"Invalid query {query[:200]!r}: {detail}") from None
    except RecursionError:
        raise ToolError(f"Invalid query: nested deeper than {MAX_DEPTH} levels") from None
    if _depth(tree) > MAX_DEPTH:
        raise ToolError(f"Invalid query: nested deeper than {MAX_DEPTH} levels")
    return tree


MAX_DEPTH = 64  # far beyond any query a person writes; well inside Python's stack


def _depth(root: Node) -> int:
    """How deep the tree nests, counted without recursion."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(node, All | AnyOf):
            stack.extend((part, level + 1) for part in node.parts)
        elif isinstance(node, Not):
            stack.append((node.part, level + 1))
    return deepest


def words(text: str) -> list[str]:
    """Text as Gmail indexes it for search: lower-case words, punctuation as a separator."""
    return re.findall(r"\w+", text.lower())


def _contains(haystack: list[str], needle: list[str]) -> bool:
    if not needle:
        return False
    size = len(needle)
    return any(haystack[i : i + size] == needle for i in range(len(haystack) - size + 1))


def _address_test(value: str, owner: str) -> Callable[[list[str]], bool]:
    wanted = owner.lower() if value.lower() == "me" else value.lower()
    parts = words(wanted)
    return lambda addresses: any(a.lower() == wanted or _contains(words(a), parts) for a in addresses)


def _day(value: str) -> datetime:
    """A date as the Gmail API reads it: epoch seconds, or midnight PST on YYYY/MM/DD or MM/DD/YYYY."""
    if value.isdigit():
        return datetime.fromtimestamp(int(value), UTC)
    for form in ("%Y/%m/%d", "%Y-%m-%d", "%m/%d/%Y"):
        try:
            return datetime.strptime(value, form).replace(tzinfo=PST)
        except ValueError:
            continue
    raise ToolError(f"Invalid query: {value!r} is not a date (YYYY/MM/DD, MM/DD/YYYY or epoch seconds)")


def _months_back(now: datetime, months: int) -> datetime:
    total = now.year * 12 + now.month - 1 - months
    year, month = divmod(total, 12)
    month += 1
    days_in = (datetime(year + month // 12, month % 12 + 1, 1) - datetime(year, month, 1)).days
    return now.replace(year=year, month=month, day=min(now.day, days_in))


def _since(value: str, now: datetime, name: str) -> datetime:
    match = re.fullmatch(r"(\d+)([dmy])", value.lower())
    if not match:
        raise ToolError(f"Invalid query: {name}:{value} wants a number and d, m or y (e.g. {name}:7d)")
    count, unit = int(match[1]), match[2]
    if unit == "d":
        return now - timedelta(days=count)
    return _months_back(now, count if unit == "m" else count * 12)


def _bytes(value: str, name: str) -> int:
    match = re.fullmatch(r"(\d+)([km]?)b?", value.lower())
    if not match:
        raise ToolError(f"Invalid query: {name}:{value} wants a size in bytes, or with K or M (e.g. 10M)")
    return int(match[1]) * {"": 1, "k": 1024, "m": 1024 * 1024}[match[2]]


def _stamp(message: Message) -> datetime:
    return datetime.strptime(message.timestamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def _label_name(name: str) -> str:
    return re.sub(r"[\s/_-]+", "-", name.strip().lower())


def _text(message: Message) -> list[str]:
    return words("\n".join([message.subject, message.body, message.sender, *message.to, *message.cc,
                            *message.bcc]))  # fmt: skip


def _received(message: Message, box: Mailbox) -> bool:
    return message.sender.lower() != box.owner.lower()


def _labelled(term: Term, box: Mailbox) -> Callable[[Message], bool]:
    """label:, in:, is:, has:, category: and the operators this mailbox answers with nothing."""
    name, value = term.field, term.value.lower()
    if name in ("label", "in"):
        if name == "in" and value == "anywhere":
            return lambda m: True
        wanted = {"drafts": "draft", "chats": "chat"}.get(value, value)
        return lambda m: any(_label_name(label) == _label_name(wanted) for label in m.labels)
    if name == "is":
        if value not in IS_VALUES:
            raise ToolError(f"Invalid query: is:{term.value} is not a Gmail search operator value")
        test = IS_VALUES[value]
        return lambda m: test(m.labels)
    if name == "has":
        if value in ATTACHMENT_KINDS:
            return lambda m: False  # no message here has an attachment (the tools refuse to attach)
        if value == "youtube":
            return lambda m: bool(YOUTUBE.search(m.body))
        if value in ("userlabels", "nouserlabels"):
            user = value == "userlabels"
            return lambda m: any(_user_label(x) for x in m.labels) is user
        if value in STARS:
            return lambda m: value == "yellow-star" and "STARRED" in m.labels  # the one star kept
        raise ToolError(f"Invalid query: has:{term.value} is not a Gmail search operator value")
    if name == "category":
        if value not in CATEGORIES:
            raise ToolError(f"Invalid query: category:{term.value} is not a Gmail category")
        label = CATEGORIES[value]
        if value == "primary":  # received mail that no other category claims is Primary
            return lambda m: (
                label in m.labels
                or (_received(m, box) and not any(x.startswith("CATEGORY_") for x in m.labels))
            )
        return lambda m: label in m.labels
    return lambda m: False  # filename:, list:: nothing here has an attachment or a List-Id header


def _user_label(label: str) -> bool:
    return label not in SYSTEM_LABELS and not label.startswith("CATEGORY_")


def _term(term: Term, box: Mailbox) -> Callable[[Message], bool]:
    name, value = term.field, term.value
    if name is None:
        needle = words(value)
        if not needle:
            raise ToolError(f"Invalid query: {value!r} has no word to search for")
        return lambda m: _contains(_text(m), needle)
    if name == "subject":
        needle = words(value)
        return lambda m: _contains(words(m.subject), needle)
    if name in ADDRESS_FIELDS:
        test = _address_test(value, box.owner)
        field: dict[str, Callable[[Message], list[str]]] = {
            "from": lambda m: [m.sender],
            "to": lambda m: [*m.to, *m.cc, *m.bcc],
            "cc": lambda m: m.cc,
            "bcc": lambda m: m.bcc,
            "deliveredto": lambda m: [box.owner] if _received(m, box) else [],
        }
        read = field[name]
        return lambda m: test(read(m))
    if name in DATE_FIELDS:
        day = _day(value)
        if name in ("after", "newer"):
            return lambda m: _stamp(m) >= day
        return lambda m: _stamp(m) < day
    if name in AGE_FIELDS:
        since = _since(value, box.now, name)
        if name == "newer_than":
            return lambda m: _stamp(m) >= since
        return lambda m: _stamp(m) < since
    if name in SIZE_FIELDS:
        limit = _bytes(value, name)
        if name == "smaller":
            return lambda m: box.size(m) < limit
        return lambda m: box.size(m) > limit
    if name == "rfc822msgid":
        wanted = value.strip("<>").lower()
        return lambda m: box.message_id(m).strip("<>").lower() == wanted
    return _labelled(term, box)


def _near(node: Near) -> Callable[[Message], bool]:
    left, right = words(node.left.value), words(node.right.value)

    def test(message: Message) -> bool:
        text = _text(message)
        starts = [i for i in range(len(text)) if text[i : i + len(left)] == left]
        ends = [i for i in range(len(text)) if text[i : i + len(right)] == right]
        return any(abs(a - b) <= node.distance + max(len(left), len(right)) - 1 for a in starts for b in ends)

    return test


def compile_node(node: Node, box: Mailbox) -> Callable[[Message], bool]:
    """The node as a test of one message; a value Gmail would refuse is a ToolError naming it."""
    if isinstance(node, Term):
        return _term(node, box)
    if isinstance(node, Near):
        return _near(node)
    if isinstance(node, Not):
        inner = compile_node(node.part, box)
        return lambda m: not inner(m)
    tests = [compile_node(p, box) for p in node.parts]
    if isinstance(node, AnyOf):
        return lambda m: any(t(m) for t in tests)
    return lambda m: all(t(m) for t in tests)


def matcher(query: str | None, box: Mailbox) -> Callable[[Message], bool]:
    """The query as a test of one message (an empty query matches every message)."""
    if not query or not query.strip():
        return lambda m: True
    return compile_node(parse(query), box)


def reaches_hidden(query: str | None) -> bool:
    """True when the query asks for spam or trash itself (`in:trash`, `label:spam`, `in:anywhere`):
    Gmail leaves both out of a search unless it does."""
    if not query or not query.strip():
        return False
    return _reaches(parse(query))


def _reaches(node: Any) -> bool:
    if isinstance(node, Term):
        return node.field in ("in", "label") and node.value.lower() in ("trash", "spam", "anywhere")
    if isinstance(node, Not):
        return False
    if isinstance(node, Near):
        return False
    return any(_reaches(p) for p in node.parts)
