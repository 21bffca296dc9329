"""Prompt-ready markdown for failures, in the seed's ``## Failures`` format. Pure, no Django.

Also the one rule for placing text an agent sent into any markdown answer (boot, history, the
failures list, reports): ``inline``. These answers are read raw by a model, which copies what it
sees into its next tool call, so a value appears exactly as stored, with no added escapes; and
it must stay inert where a renderer reads it: no emphasis, link, image, HTML, heading, list or
code of its own. ``inline`` folds the value onto one line, removes what a terminal or a
bidi-aware reader would hide or reorder, and then (``literal``) writes it as it is when nothing
in it can start markup, or else inside a code span whose fence is longer than any backtick run
in it, where CommonMark shows every character as itself. Text the service writes itself
(headings, labels, its own bold) is written around it as is.
"""

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

from config.scrubbing import normalise

# Templates quoted in a root-cause note, and their length; the JSON lists every member.
NOTE_TEMPLATES = 5
NOTE_TEMPLATE_CHARS = 120
# Longest value shown for one field; a traceback or a pasted document would crowd out the
# rest of a prompt, and the full text stays available through the JSON API.
MAX_VALUE_CHARS = 500
# Any run of whitespace, which in Python includes every line break str.splitlines knows
# (\r \n \v \f \x1c-\x1e \x85 U+2028 U+2029): one space, so the value stays on its line.
_WHITESPACE = re.compile(r"\s+")
# What can start markup in a value set inside one line of the service's text, by CommonMark 0.31
# and GitHub's strikethrough and autolinks (a value never starts a table row). A value with none
# of them is written as it is; any other goes into a code span (``literal``).
_MARKUP = re.compile(
    "|".join(
        [
            r"[`*~]",  # code spans, emphasis, strikethrough
            r"<[A-Za-z/!?]",  # HTML (tags, comments, declarations) and autolinks
            # Links and images: inline or by reference ("](" "]["). Brackets alone link only by a
            # definition, which must start a line or an item, and the value may be followed by "(".
            r"\][(\[]|^\[|\]$",
            r"\\(?=[!-/:-@\[-`{-~]|$)",  # a backslash escape, or a hard break (or an escape of the
            #                         service's own next character) when the value ends with it
            # Entity references: numeric (decimal, hexadecimal) and named.
            r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});",
            r"(?i:\b(?:https?|ftp)://|\bwww\.)",  # GitHub's extended autolinks: URLs and www.
            r"[\w.+-]@[\w-]+\.\w",  # ...and e-mail addresses
            r"(?:^|\s)#+$",  # a heading's closing sequence, when the value ends a heading
            # Block markers, when the value starts a line or a list item's content: a bullet or an
            # ordered-list marker, an ATX heading, a block quote, a thematic break.
            r"^(?:[-+](?:\s|$)|[0-9]{1,9}[.)](?:\s|$)|#{1,6}(?:\s|$)|>|(?:-\s*){3,}$)",
        ]
    )
)
# An underscore run opens or closes emphasis unless a letter or digit stands on both sides of
# it (``fetch_user_data`` is plain, ``__init__`` and ``_private`` are not).
_UNDERSCORES = re.compile(r"_+")
# Backtick runs: a code span's fence is one longer than the longest of them.
_BACKTICKS = re.compile(r"`+")


def flatten(value, limit: int = MAX_VALUE_CHARS) -> str:
    """``value`` as one clean line of at most ``limit`` characters: terminal escapes, controls
    and invisible characters removed, whitespace folded (see ``literal`` for markdown)."""
    # The same normalisation as before scrubbing (config.scrubbing.normalise): on stored text it
    # removes nothing, so no secret split by an invisible character is joined here.
    text = _WHITESPACE.sub(" ", normalise(str(value))).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def plain(text: str) -> bool:
    """Whether ``text`` renders as exactly its characters wherever a value stands in a line."""
    if _MARKUP.search(text):
        return False
    return all(
        m.start() > 0
        and m.end() < len(text)
        and text[m.start() - 1].isalnum()
        and text[m.end()].isalnum()
        for m in _UNDERSCORES.finditer(text)
    )


def literal(text: str) -> str:
    """``text`` (one line) as it is when plain, else in a code span: either way a reader sees
    its exact characters and no markup of its own."""
    if plain(text):
        return text
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
    # CommonMark strips one space from each end of a code span's content: padded only where a
    # backtick at an end would otherwise join the fence.
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def inline(value, limit: int = MAX_VALUE_CHARS) -> str:
    """Agent text placed in one markdown line: flattened, capped, then ``literal`` (the cap
    applies to what the reader sees)."""
    return literal(flatten(value, limit))


def root_cause_note(
    patterns: list[Mapping],
    *,
    agents: int,
    since: datetime | None,
    lead: str = "Probably one cause with",
    quote=flatten,
) -> str:
    """What agents read about an open root-cause group, in the service's words:
    ``Probably one cause with “A” and “B” (4 agents, since 2026-11-20 08:12 UTC): …``.
    ``quote`` renders an agent's template: flattened in JSON, ``inline`` in markdown."""
    names = [f"“{quote(p['template'], NOTE_TEMPLATE_CHARS)}”" for p in patterns[:NOTE_TEMPLATES]]
    if len(patterns) > NOTE_TEMPLATES:
        names.append(f"{len(patterns) - NOTE_TEMPLATES} more")
    listed = " and ".join(filter(None, [", ".join(names[:-1]), names[-1] if names else ""]))
    when = f" ({agents} agents, since {since:%Y-%m-%d %H:%M} UTC)" if since else ""
    return (
        f"{lead} {listed or 'other symptoms'}{when}: retry once that cause is fixed, not "
        "each symptom on its own."
    )


def timestamp(moment: datetime) -> str:
    """``2026-02-01T11:00:00Z``, as the seed writes it."""
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def humanise(error_type: str) -> str:
    """``rate_limit`` -> ``Rate limit``: a title when the agent gave none."""
    words = error_type.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:] if words else "Failure"


def retry_text(retry_safe: bool | None, retry_after: int | None) -> str:
    if retry_safe is None:
        return "Unknown"
    if not retry_safe:
        return "No"
    return f"Yes, after {retry_after}s" if retry_after else "Yes"


def side_effects_text(side_effects) -> str:
    if not side_effects:
        return "None"
    if isinstance(side_effects, str):
        return inline(side_effects)
    return inline("; ".join(str(item) for item in side_effects))


def failure_block(failure: Mapping) -> str:
    """One ``### <timestamp> — <title>`` block with the seed's bold-labelled bullets."""
    title = inline(failure.get("title") or humanise(failure.get("error_type") or ""), 120)
    lines = [
        f"### {timestamp(failure['occurred_at'])} — {title}",
        f"- **Task:** {inline(failure.get('task_description') or failure['task'])}",
        f"- **Error:** {inline(failure['error'])}",
        f"- **Retry safe:** {retry_text(failure.get('retry_safe'), failure.get('retry_after'))}",
        f"- **Side effects:** {side_effects_text(failure.get('side_effects'))}",
        f"- **Recovery hint:** {inline(failure.get('recovery_hint') or 'None')}",
        f"- **Attempt count:** {int(failure.get('attempt_count') or 1)}",
    ]
    return "\n".join(lines)


def failures_section(failures: Iterable[Mapping], heading: str = "## Failures") -> str:
    """The seed's ``## Failures`` section; blocks separated by a blank line."""
    blocks = [failure_block(f) for f in failures]
    return "\n\n".join([heading, *blocks]) + "\n" if blocks else f"{heading}\n\nNone.\n"
