"""Prompt-ready markdown for failures, in the seed's ``## Failures`` format. Pure, no Django.

Also the one rule for placing text an agent sent into any markdown answer (boot, history, the
failures list, reports): ``inline``. It folds the value onto one line, so it cannot start a
heading, a fence or a list item of its own, removes what a terminal or a bidi-aware reader would
hide or reorder, and backslash-escapes every character that could start inline markup, so the
value renders as exactly its literal characters: no emphasis, link, image, HTML or code of its
own. Text the service writes itself (headings, labels, its own bold) is written around it as is.
"""
import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone

# Templates quoted in a root-cause note, and their length; the JSON lists every member.
NOTE_TEMPLATES = 5
NOTE_TEMPLATE_CHARS = 120
# Longest value shown for one field; a traceback or a pasted document would crowd out the
# rest of a prompt, and the full text stays available through the JSON API.
MAX_VALUE_CHARS = 500
# Terminal escape sequences, removed whole so no parameter text ("[31m") is left behind: CSI
# (ESC [ or the one-byte CSI U+009B, parameters, intermediates, a final byte), OSC (ESC ] up to
# BEL or ESC \, or to the end when unterminated), and the other two-character ESC sequences.
_ANSI = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
                   r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
                   r"|\x1b[ -Z\\-~]")
# Any run of whitespace, which in Python includes every line break str.splitlines knows
# (\r \n \v \f \x1c-\x1e \x85 U+2028 U+2029): one space, so the value stays on its line.
_WHITESPACE = re.compile(r"\s+")
# What is left to hide or reorder text once whitespace is folded: the C0 and C1 control
# characters (NUL, BEL, a lone ESC, DEL…), the bidi embeddings and overrides (U+202A-U+202E),
# isolates (U+2066-U+2069) and marks (U+200E, U+200F, U+061C), and the zero-width space,
# non-joiner, joiner, word joiner, invisible operators and BOM (U+200B-U+200D, U+2060-U+2064,
# U+FEFF).
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064"
                     "\u2066-\u2069\ufeff]")
# CommonMark's ASCII punctuation that can open inline markup (emphasis, code, links, images,
# autolinks, HTML, GFM tables and strikethrough) or, with a line's start, block markup (headings,
# lists, quotes, breaks), and "&" (entity references). The agent's own "\" is escaped too, so
# it cannot cancel the escape of the character after it.
_MARKUP = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~&])")


def flatten(value, limit: int = MAX_VALUE_CHARS) -> str:
    """``value`` as one clean line of at most ``limit`` characters: terminal escapes, controls
    and invisible characters removed, whitespace folded. Not escaped (see ``escape``)."""
    text = _HIDDEN.sub("", _WHITESPACE.sub(" ", _ANSI.sub("", str(value))))
    text = _WHITESPACE.sub(" ", text).strip()  # what stood between two spaces is gone
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def escape(text: str) -> str:
    """Every markup character of ``text`` backslash-escaped: it renders as itself."""
    return _MARKUP.sub(r"\\\1", text)


def inline(value, limit: int = MAX_VALUE_CHARS) -> str:
    """Agent text made safe for one markdown line: flattened, capped, then escaped (the cap
    applies to what the reader sees, and never cuts an escape in two)."""
    return escape(flatten(value, limit))


def root_cause_note(patterns: list[Mapping], *, agents: int, since: datetime | None,
                    lead: str = "Probably one cause with", quote=flatten) -> str:
    """What agents read about an open root-cause group, in the service's words:
    ``Probably one cause with “A” and “B” (4 agents, since 2026-11-20 08:12 UTC): …``.
    ``quote`` renders an agent's template: flattened in JSON, ``inline`` in markdown."""
    names = [f"“{quote(p['template'], NOTE_TEMPLATE_CHARS)}”" for p in patterns[:NOTE_TEMPLATES]]
    if len(patterns) > NOTE_TEMPLATES:
        names.append(f"{len(patterns) - NOTE_TEMPLATES} more")
    listed = " and ".join(filter(None, [", ".join(names[:-1]), names[-1] if names else ""]))
    when = f" ({agents} agents, since {since:%Y-%m-%d %H:%M} UTC)" if since else ""
    return (f"{lead} {listed or 'other symptoms'}{when}: retry once that cause is fixed, not "
            "each symptom on its own.")


def timestamp(moment: datetime) -> str:
    """``2026-02-01T11:00:00Z``, as the seed writes it."""
    return moment.astimezone(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


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
