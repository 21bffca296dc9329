"""The history context as prompt-ready markdown, in the seed's sections and item format.

Pure: plain values in, text out. Everything that came from an agent has its secrets scrubbed
and goes through ``failures.records.markdown``'s one rule for agent text (``inline``): one line,
capped, rendered as its literal characters, never as markup of its own.
"""

import math
from dataclasses import dataclass

from config.scrubbing import scrub_text
from failures.records import markdown

TITLE = "## Task History (Learning Context)"
# One value in one line of the history: long enough for an error message's gist.
VALUE_CHARS = 300
NAME_CHARS = 100


@dataclass
class Item:
    """One past outcome as the history shows it."""

    outcome: str  # "success" or "failure"
    task_type: str
    task_id: str
    files: tuple = ()
    approach: str = ""
    duration_ms: int | None = None
    error: str = ""
    error_type: str = ""
    lesson: tuple[str, bool] | None = None  # (resolution, approved)
    by: str = ""  # the agent, when it is not the one asking
    score: float = 0.0
    key: int = 0  # the outcome's id


def estimate_tokens(text: str) -> int:
    """Tokens a prompt pays for ``text``: one per four characters, rounded up (the seed's own
    ratio, 3 KB of history for about 750 tokens). Close for English and code; no tokenizer
    of any one model is assumed."""
    return math.ceil(len(text) / 4)


def one_line(text, limit: int = VALUE_CHARS) -> str:
    """``text`` scrubbed and flattened to one clean line of at most ``limit`` characters: for
    answers that are not markdown."""
    return markdown.flatten(scrub_text(str(text)), limit)


def inline(text, limit: int = VALUE_CHARS) -> str:
    """``text`` made safe to place inside one markdown line, at most ``limit`` characters."""
    return markdown.literal(one_line(text, limit))


def _name(text: str) -> str:
    return inline(text, NAME_CHARS)


def format_duration(ms: int) -> str:
    """``850ms``, ``3s`` (rounded half up), ``2m 5s``, ``1h 4m``."""
    if ms < 1000:
        return f"{ms}ms"
    seconds = (ms + 500) // 1000
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m {seconds % 60}s"
    return f"{seconds // 3600}h {seconds % 3600 // 60}m"


def _files_line(files: tuple, plural_always: bool = False) -> list[str]:
    if not files:
        return []
    label = "Files" if plural_always or len(files) > 1 else "File"
    return [f"- {label}: {inline(', '.join(files))}"]


def _lesson_line(item: Item) -> list[str]:
    if item.lesson is None:
        return []
    resolution, approved = item.lesson
    label = "approved lesson" if approved else "unverified lesson, not yet reviewed by a human"
    return [f"- Known fix ({label}): {inline(resolution)}"]


def _by_line(item: Item) -> list[str]:
    return [f"- Agent: {_name(item.by)}"] if item.by else []


def _heading(item: Item) -> str:
    """``**type** (Task #id)``; ``Task #id`` alone when the outcome has no task type."""
    task, task_type = f"Task #{_name(item.task_id)}", _name(item.task_type)
    return f"**{task_type}** ({task})" if task_type else task


def success_block(item: Item) -> list[str]:
    lines = [f"- {_heading(item)}"]
    lines += _files_line(item.files, plural_always=True)
    lines += [f"- Approach: {inline(item.approach)}"] if item.approach else []
    if item.duration_ms is not None:
        lines.append(f"- Duration: {format_duration(item.duration_ms)}")
    return lines


def failure_block(item: Item) -> list[str]:
    lines = [f"- {_heading(item)}"]
    lines += [f"- Error: {inline(item.error)}"] if item.error else []
    lines += [f"- Error Type: {inline(item.error_type, NAME_CHARS)}"] if item.error_type else []
    return lines + _files_line(item.files) + _lesson_line(item)


def related_block(item: Item) -> list[str]:
    worked = item.outcome == "success"
    mark, word = ("✓", "completed") if worked else ("✗", "failed")
    lines = [f"- {mark} {_heading(item)} - {word}"]
    lines += _files_line(item.files) + _by_line(item)
    if worked and item.approach:
        lines.append(f"- What worked: {inline(item.approach)}")
    elif not worked and item.error:
        lines.append(f"- What failed: {inline(item.error)}")
    return lines + ([] if worked else _lesson_line(item))


def render(
    successes: list[Item],
    failures: list[Item],
    related: list[Item],
    *,
    success_days: int = 7,
    failure_days: int = 7,
) -> str:
    """The seed's markdown; empty when there is nothing to show."""
    sections = [
        (f"### Recent Successful Approaches (Last {success_days} Days)", successes, success_block),
        (f"### Past Failures to Avoid (Last {failure_days} Days)", failures, failure_block),
        ("### Related Tasks (Similar Context)", related, related_block),
    ]
    parts = [TITLE]
    for heading, items, block in sections:
        if items:
            parts.append(heading)
            parts.extend("\n".join(block(item)) for item in items)
    return "\n\n".join(parts) + "\n" if len(parts) > 1 else ""


def trim_to_budget(sections: list[list[Item]], budget: int | None, render_with) -> int:
    """Drop the least relevant items (lowest score, then oldest) until the rendering fits
    ``budget`` tokens; return how many were dropped. ``sections`` are trimmed in place."""
    if budget is None:
        return 0
    dropped = 0
    while estimate_tokens(render_with(*sections)) > budget:
        candidates = [
            (item.score, item.key, s, i)
            for s, items in enumerate(sections)
            for i, item in enumerate(items)
        ]
        if not candidates:
            break
        _, _, section, index = min(candidates)
        del sections[section][index]
        dropped += 1
    return dropped
