"""Prompt-ready markdown for failures, in the seed's ``## Failures`` format. Pure, no Django.

Every value is flattened to one line, length-capped and stripped of markdown structure, so text
an agent sent (an error message, a hint) cannot open a heading, a fence or a new list item in
the prompt it is pasted into.
"""
import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone

# Longest value shown for one field; a traceback or a pasted document would crowd out the
# rest of a prompt, and the full text stays available through the JSON API.
MAX_VALUE_CHARS = 500
_WHITESPACE = re.compile(r"\s+")
# Characters that start markdown structure at the beginning of a line or fence code.
_FENCE = re.compile(r"`{3,}|~{3,}")
_LEADING_MARKUP = re.compile(r"^[#>*+\-=|]+\s*")


def inline(value, limit: int = MAX_VALUE_CHARS) -> str:
    """One safe line: whitespace folded, fences and leading markup removed, length-capped."""
    text = _WHITESPACE.sub(" ", str(value)).strip()
    text = _FENCE.sub("'''", text)
    text = _LEADING_MARKUP.sub("", text)
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


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
