"""The block content the Notion append tools take, checked as Notion checks it, and stored as it nests.

Why: the sandbox used to ignore keys it did not model, so a toggle with a paragraph inside was
appended without its paragraph and the call answered `successful: true`; and it refused rich text
Notion accepts (mentions, equations). Now, following Notion's "Append block children" reference
(developers.notion.com/reference/patch-block-children) and its rich text object
(developers.notion.com/reference/rich-text):

- a block's `children` are kept, and fetchable by the block's id, "up to two levels of nesting in a
  single request": children and grandchildren of an appended block; a third level is refused;
- a block type that cannot hold children (a heading that is not toggleable) refuses them;
- rich text is `text`, `mention` (user, page, database, date, link_preview) or `equation`; the
  read-only `plain_text` and `href` Notion returns may be sent back and are ignored;
- any key Notion does not know is refused, never dropped;
- Notion's request size limits (developers.notion.com/reference/request-limits): at most 100 block
  children in any one array, nested arrays included ("Arrays of block children longer than 100 will
  result in an error"), at most 1,000 block elements and 500 KB in one request. Without them an
  agent could append 100 toggles of 100 children of 100 each (a million blocks) in one call, which
  live refuses and every grader after it would read.

A refusal inside the content is Notion's 400 `validation_error`, its message in Notion's words
("body failed validation: body.children[0].toggle.foo should be not present"). The JSON schema
the agent is shown stays Composio's declared one (the nested `children`, mentions and equations are
accepted but not advertised, as live accepts them without advertising them).

The sandbox stores a block's text as plain text: a mention is kept as the text Notion shows for it
(a page's title, `@` and a user id, a date), so a block read back holds a text item where live
holds the mention: a known difference (docs/tools.md).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, model_validator
from pydantic.json_schema import SkipJsonSchema

from evals.world.outcome import Block
from evals.world.sandbox.tools.notion_tree import MAX_TEXT, plain, same_id
from evals.world.toolset import ToolError
from evals.world.toolset import describe as composio_describe

if TYPE_CHECKING:
    from evals.world.sandbox.model import World

MAX_DEPTH = 2  # "we allow up to two levels of nesting in a single request"
MAX_CHILDREN = 100  # "a limit of 100 block children that can be appended by a single API request"
MAX_BLOCK_ELEMENTS = 1000  # "the maximum size of payload is 1000 block elements and 500KB overall"
MAX_PAYLOAD_BYTES = 500 * 1000
BLOCK_ARRAYS = ("children", "blocks", "tables", "rows")  # the arrays whose items are blocks
Color = Literal[
    "default", "gray", "brown", "orange", "yellow", "green", "blue", "purple", "pink", "red",
    "gray_background", "brown_background", "orange_background", "yellow_background",
    "green_background", "blue_background", "purple_background", "pink_background", "red_background",
]  # fmt: skip


def notion_error(message: str) -> str:
    """Notion's 400 answer to a body it will not take, as the error text of the envelope."""
    return f"Notion API error 400 validation_error: body failed validation: {message}"


def request_limits(args: object) -> str | None:
    """Notion's refusal of a request past its size limits, or None: read from the raw arguments
    before they are validated, so a huge request costs one walk, not a model per block. The walk
    is iterative and the size measured on compact JSON, so no width or depth of input raises."""
    elements = 0
    stack: list[tuple[str, object]] = [("body", args)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{where}.{key}", item) for key, item in value.items())
        elif isinstance(value, list):
            if where.rsplit(".", 1)[-1] in BLOCK_ARRAYS:
                if len(value) > MAX_CHILDREN:
                    count = len(value)
                    limit = MAX_CHILDREN
                    return notion_error(f"{where}.length should be ≤ `{limit}`, instead was `{count}`.")
                elements += len(value)
            stack.extend((f"{where}[{n}]", item) for n, item in enumerate(value))
    if elements > MAX_BLOCK_ELEMENTS:
        limit = MAX_BLOCK_ELEMENTS
        return notion_error(f"the request has {elements} block elements; at most {limit} are allowed.")
    try:
        size = len(json.dumps(args, separators=(",", ":"), default=str).encode())
    except (RecursionError, ValueError):
        return notion_error("the request body is nested too deeply to read.")
    if size > MAX_PAYLOAD_BYTES:
        return notion_error(f"the request body is {size} bytes; at most {MAX_PAYLOAD_BYTES} are allowed.")
    return None


class Nested(BaseModel):
    """A nested input object: a key Notion does not know is refused ("should be not present")."""

    model_config = ConfigDict(extra="forbid")


class Link(Nested):
    url: str
    type: SkipJsonSchema[Literal["url"] | None] = None


class TextContent(Nested):
    content: str = Field(max_length=MAX_TEXT)
    link: Link | None = None


class Annotations(Nested):
    bold: bool = False
    code: bool = False
    color: Color = "default"
    italic: bool = False
    strikethrough: bool = False
    underline: bool = False


class RichText(Nested):
    annotations: Annotations | None = None
    text: TextContent
    type: Literal["text"] = "text"
    plain_text: SkipJsonSchema[str | None] = None  # read-only in Notion's answers: accepted, ignored
    href: SkipJsonSchema[str | None] = None


class Target(Nested):
    id: str
    object: SkipJsonSchema[str | None] = None


class DateValue(Nested):
    start: str
    end: str | None = None
    time_zone: str | None = None


class Preview(Nested):
    url: str


MENTIONS = ("user", "page", "database", "date", "link_preview")


class Mention(Nested):
    type: Literal["user", "page", "database", "date", "link_preview"]
    user: Target | None = None
    page: Target | None = None
    database: Target | None = None
    date: DateValue | None = None
    link_preview: Preview | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Mention:
        given = [kind for kind in MENTIONS if getattr(self, kind) is not None]
        if given != [self.type]:
            raise ValueError(f"a {self.type} mention holds `{self.type}` and nothing else, not {given}")
        return self


class MentionText(Nested):
    type: Literal["mention"]
    mention: Mention
    annotations: Annotations | None = None
    plain_text: str | None = None
    href: str | None = None


class Equation(Nested):
    expression: str = Field(max_length=1000)


class EquationText(Nested):
    type: Literal["equation"]
    equation: Equation
    annotations: Annotations | None = None
    plain_text: str | None = None
    href: str | None = None


RichItem = RichText | SkipJsonSchema[MentionText] | SkipJsonSchema[EquationText]


class TextBody(Nested):
    rich_text: list[RichItem]
    color: Color = "default"
    children: SkipJsonSchema[list[AnyChild] | None] = None


class HeadingBody(TextBody):
    is_toggleable: bool = False


class ToDoBody(TextBody):
    checked: StrictBool = False


class CalloutBody(TextBody):
    icon: SkipJsonSchema[dict[str, Any] | None] = None


class Paragraph(Nested):
    object: Literal["block"] = "block"
    type: Literal["paragraph"] = "paragraph"
    paragraph: TextBody


class Heading1(Nested):
    object: Literal["block"] = "block"
    type: Literal["heading_1"] = "heading_1"
    heading_1: HeadingBody


class Heading2(Nested):
    object: Literal["block"] = "block"
    type: Literal["heading_2"] = "heading_2"
    heading_2: HeadingBody


class Heading3(Nested):
    object: Literal["block"] = "block"
    type: Literal["heading_3"] = "heading_3"
    heading_3: HeadingBody


class Bulleted(Nested):
    object: Literal["block"] = "block"
    type: Literal["bulleted_list_item"] = "bulleted_list_item"
    bulleted_list_item: TextBody


class Numbered(Nested):
    object: Literal["block"] = "block"
    type: Literal["numbered_list_item"] = "numbered_list_item"
    numbered_list_item: TextBody


class ToDo(Nested):
    object: Literal["block"] = "block"
    type: Literal["to_do"] = "to_do"
    to_do: ToDoBody


class Toggle(Nested):
    object: Literal["block"] = "block"
    type: Literal["toggle"] = "toggle"
    toggle: TextBody


class Quote(Nested):
    object: Literal["block"] = "block"
    type: Literal["quote"] = "quote"
    quote: TextBody


class Callout(Nested):
    object: Literal["block"] = "block"
    type: Literal["callout"] = "callout"
    callout: CalloutBody


class TableRowInput(Nested):
    cells: list[list[RichItem]]


class TableInput(Nested):
    """One new table of NOTION_APPEND_TABLE_BLOCKS (its docs: width 1-100, headers default false,
    at least one row, as many cells per row as the width)."""

    table_width: int = Field(ge=1, le=100)
    has_column_header: bool = False
    has_row_header: bool = False
    rows: list[TableRowInput] = Field(min_length=1)


TextChild = Paragraph | Heading1 | Heading2 | Heading3 | Bulleted | Numbered
TaskChild = ToDo | Toggle | Callout
# A nested child may be any text-like block Notion takes under a block.
AnyChild = Paragraph | Heading1 | Heading2 | Heading3 | Bulleted | Numbered | ToDo | Toggle | Quote | Callout
TextBody.model_rebuild()
HeadingBody.model_rebuild()
ToDoBody.model_rebuild()
CalloutBody.model_rebuild()


def _mention_text(world: World, item: MentionText) -> str:
    """The text Notion shows for a mention (its `plain_text`): a page's or database's title, `@`
    and the user, the date, the link."""
    if item.plain_text:
        return item.plain_text
    m = item.mention
    if m.page is not None or m.database is not None:
        target = (m.page or m.database).id  # type: ignore[union-attr]
        titles = [p.title for p in world.notion.pages if same_id(p.id, target)]
        titles += [d.title for d in world.notion.databases if same_id(d.id, target)]
        return titles[0] if titles else "Untitled"
    if m.user is not None:
        return f"@{m.user.id}"
    if m.date is not None:
        return m.date.start + (f" → {m.date.end}" if m.date.end else "")
    return m.link_preview.url if m.link_preview is not None else ""


def text_of(world: World, items: list[Any]) -> str:
    """The plain text of validated rich text items, every type (Notion's limits checked by `plain`)."""
    parts: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, MentionText):
            parts.append({"text": {"content": _mention_text(world, item)}})
        elif isinstance(item, EquationText):
            parts.append({"text": {"content": item.plain_text or item.equation.expression}})
        else:
            parts.append({"text": {"content": item.text.content}})
    return plain(parts)


def kind_of(child: AnyChild) -> str:
    return str(child.type)


def build(
    world: World, child: AnyChild, ids: tuple[object, ...], stamp: str, where: str, depth: int = 0
) -> Block:
    """A validated input block as the sandbox stores it, its children included (`where` is its
    place in the request, for Notion's error)."""
    kind = kind_of(child)
    body = getattr(child, kind)
    nested = body.children or []
    if nested and depth >= MAX_DEPTH:
        raise ToolError(notion_error(f"{where}.{kind}.children should be not present"))
    if nested and kind.startswith("heading_") and not body.is_toggleable:
        raise ToolError(
            notion_error(f"{where}.{kind}.children should be not present (the heading is not toggleable)")
        )
    return Block(
        id=world.make_uuid("block-new", world.clock, *ids),
        type=kind,
        text=text_of(world, body.rich_text),
        checked=bool(body.checked) if kind == "to_do" else None,
        children=[
            build(world, c, (*ids, n), stamp, f"{where}.{kind}.children[{n}]", depth + 1)
            for n, c in enumerate(nested)
        ],
        created_by="agent",
        last_edited=stamp,
    )


def _path(loc: tuple[int | str, ...]) -> str:
    """Pydantic's location as Notion writes a body path (`body.children[0].toggle.rich_text`); the
    names pydantic gives union members (model names, capitalised) are not part of it."""
    out = "body"
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part[:1].isupper() or "[" in part:
            continue
        else:
            out += f".{part}"
    return out


CONTENT = ("children", "blocks", "tables")  # what Composio passes on to Notion as the request body


def describe(exc: ValidationError) -> str:
    """Refused arguments: inside the block content, Notion's words, one line per problem (what the
    members of a union each said, once); elsewhere Composio's own "Invalid arguments"."""
    if not any(err["loc"] and err["loc"][0] in CONTENT for err in exc.errors()):
        return composio_describe(exc)
    lines: list[str] = []
    for err in exc.errors():
        where = _path(err["loc"])
        if err["type"] == "extra_forbidden":
            line = f"{where} should be not present"
        elif err["type"] == "missing":
            line = f"{where} should be defined, instead was `undefined`"
        else:
            line = f"{where}: {err['msg']}"
        if line not in lines:
            lines.append(line)
    return notion_error("; ".join(lines))
