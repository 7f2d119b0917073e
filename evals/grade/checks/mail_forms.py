"""How people write a time, a date or a question in a mail, as patterns the mail checks match.

A reply that says "5 pm UTC", "Aug 14th" or "2025-08-14" gives the same answer as "17:00" and
"Thursday 14 August"; a grader that wants one spelling refuses correct replies (the suite measured
about one in nine). A rubric states the value once, canonically (`17:00`, `2025-08-14`), and these
functions turn it into one regular expression for every common form a careful reader would accept.
A form a reader could not decide is left out: `03/09` is March or September depending on the
reader, so a slashed date is only read month-first when the day cannot be a month.

A question is a sentence that ends with "?" or asks without one ("Please confirm which ...",
"Let me know whether ..."). Quoted lines (`> ...`) are the other person's words, not the agent's.
"""

from __future__ import annotations

import re

MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
ORDINAL = r"(?:st|nd|rd|th)?"


def _meridiem(hour: int) -> str:
    return r"a\.?\s?m\.?" if hour < 12 else r"p\.?\s?m\.?"


def time_pattern(hhmm: str) -> str:
    """A regex for the 24-hour time `hhmm` ("17:00") in the forms people write it: 17:00, 17.00,
    17h00, 1700 UTC, 5 pm, 5:00 p.m. (and noon or midnight). A 24-hour form read with the other
    half-day's am/pm after it is not this time ("9:45 pm" is not 09:45)."""
    hour, minute = (int(x) for x in hhmm.split(":"))
    mm = f"{minute:02d}"
    other_half = _meridiem(12 if hour < 12 else 0)
    forms = [
        rf"(?<![\d:.]){hour:02d}[:.h]{mm}(?!\d)(?!\s?{other_half})",
        rf"(?<![\d:.]){hour}[:.h]{mm}(?!\d)(?!\s?{other_half})",
        rf"(?<![\d:.]){hour:02d}{mm}\s?(?:h\b|hrs\b|hours\b|UTC\b|Z\b|GMT\b)",
    ]
    twelve = hour % 12 or 12
    minutes = r"(?:[:.]00)?" if minute == 0 else rf"[:.]{mm}"
    forms.append(rf"(?<![\d:.]){twelve}{minutes}\s?{_meridiem(hour)}(?![a-z])")
    if (hour, minute) == (12, 0):
        forms.append(r"\bnoon\b|\bmidday\b")
    if (hour, minute) == (0, 0):
        forms.append(r"\bmidnight\b")
    return "(?:" + "|".join(forms) + ")"


def date_pattern(iso: str) -> str:
    """A regex for the date `iso` ("2025-08-14") as people write it: 14 August, 14th of Aug, Aug 14,
    August 14th, 2025-08-14, 14/08(/2025), 14.08.2025; and 08/14 only when the day cannot be a month."""
    year, month, day = (int(x) for x in iso.split("-"))
    name = MONTHS[month - 1] + r"[a-z]*\.?"
    forms = [
        rf"(?<![\d.]){day}{ORDINAL}(?:\s+of)?\s+{name}(?![a-z])",
        rf"(?<![\d.]){day:02d}{ORDINAL}(?:\s+of)?\s+{name}(?![a-z])",
        rf"\b{name}\s+0?{day}{ORDINAL}(?!\d)",
        rf"(?<!\d){year}-{month:02d}-{day:02d}(?!\d)",
        rf"(?<![\d/.])0?{day}[/.]0?{month}(?:[/.](?:{year}|{year % 100:02d}))?(?![\d/]|\.\d)",
    ]
    if day > 12:
        forms.append(rf"(?<![\d/.])0?{month}/0?{day}(?:/(?:{year}|{year % 100:02d}))?(?![\d/])")
    return "(?:" + "|".join(forms) + ")"


# Sentences end at . ? ! or a paragraph; a single line break is wrapping, unless a list item starts.
SENTENCE_END = re.compile(r"(?<=[.?!])\s+|\n\s*\n|\n(?=\s*(?:[-*•]|\d{1,2}[.)])\s)")
# A request anywhere in its sentence asks: "For the draft offer: please let me know which ..." too.
ASKS = re.compile(
    r"\b(?:(?:could|can|would|will) you (?:please )?(?:confirm|clarify|tell me|let me know)|"
    r"please (?:confirm|clarify|let me know|tell me)|let me know (?:which|whether|if|who|what)|"
    r"i need to know (?:which|whether|who)|i(?:'m| am) not sure (?:which|whether|who))\b",
    re.IGNORECASE,
)


def questions(body: str) -> list[tuple[str, str]]:
    """The sentences of `body` that ask something, each with the sentence before it (quoted lines
    left out): "Two colleagues called Marco asked for it. Which one should I send it to?" asks
    about Marco though the question itself does not name him."""
    own = "\n".join(line for line in body.splitlines() if not line.lstrip().startswith(">"))
    sentences = [" ".join(s.split()) for s in SENTENCE_END.split(own) if s.strip()]
    return [
        (s, f"{sentences[i - 1]} {s}" if i else s)
        for i, s in enumerate(sentences)
        if s.endswith("?") or ASKS.search(s)
    ]


# Where a sentence ends, as SENTENCE_END reads it: a single line break is wrapping.
SENTENCE_STOP = re.compile(r"[?!]|\.(?=\s|$)|\n\s*\n|\n(?=\s*(?:[-*•]|\d{1,2}[.)])\s)")


def in_question(text: str, end: int) -> bool:
    """Whether the sentence running on from text[end] ends with a question mark."""
    stop = SENTENCE_STOP.search(text, end)
    return stop is not None and stop.group(0) == "?"


def quoted(text: str, start: int) -> bool:
    """Whether text[start] sits on a quoted line (`> ...`)."""
    line = text[text.rfind("\n", 0, start) + 1 : start]
    return line.lstrip().startswith(">")
