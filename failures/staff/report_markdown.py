"""A pattern-analysis report as markdown, from its JSON data. Pure, no Django.

The data is what failures.staff.reports stores (timestamps as ISO strings). Text that agents sent
(templates, task names, agent names, lesson names) goes through ``inline``, so it renders as
plain text; templates are set off by quotes.
"""

from config.moments import moment_parsed
from failures.analysis import recurrence
from failures.records.markdown import inline, timestamp

# Shared hours and agents listed per evidence link; the rest are counted.
EVIDENCE_ITEMS = 6

SECTIONS = [
    ("new_patterns", "New patterns"),
    ("rising_patterns", "Rising patterns"),
    ("root_cause_groups", "Root-cause groups"),
    ("loops", "Loops"),
    ("regressions", "Regressions: the fix stopped working"),
    ("recurring_handled", "Recurring, handled: back again, and its lesson kept working"),
    ("lessons_fell", "Lessons whose effectiveness fell"),
    ("curation_queue", "Curation queue: the most frequent patterns with no approved lesson"),
]


def report_summary(data: dict) -> str:
    """One line: how many entries each section has."""
    labels = [
        ("new_patterns", "new"),
        ("rising_patterns", "rising"),
        ("root_cause_groups", "root-cause groups"),
        ("loops", "loops"),
        ("regressions", "regressions"),
        ("recurring_handled", "recurring, handled"),
        ("lessons_fell", "lessons falling"),
        ("curation_queue", "to curate"),
    ]
    return " · ".join(f"{label}: {len(data.get(key) or [])}" for key, label in labels)


def report_markdown(data: dict) -> str:
    """The whole report: title, summary line, then one section per kind of finding."""
    lines = [
        f"# Pattern report: {_when(data['since'])} to {_when(data['until'])}",
        "",
        report_summary(data),
        "",
    ]
    for key, title in SECTIONS:
        entries = data.get(key) or []
        lines += [f"## {title}", ""]
        render = _RENDERERS[key]
        lines += [line for entry in entries for line in render(entry)] or ["_None._"]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _when(value: str | None) -> str:
    return timestamp(moment_parsed(value)) if value else "?"


def _quoted(text: str) -> str:
    return f"“{inline(text, 200)}”"


def _ref(pattern: dict) -> str:
    return f"#{pattern['id']} {_quoted(pattern.get('template', ''))}"


def _new(entry: dict) -> list[str]:
    return [
        f"- {_ref(entry)} ({inline(entry['error_type'] or 'untyped', 60)}): "
        f"{entry['events']} failures, {entry['agents']} agents, {entry['tasks']} tasks; "
        f"first seen {_when(entry['first_seen'])}"
    ]


def _rising(entry: dict) -> list[str]:
    was = entry["previous"]
    factor = f" (×{entry['current'] / was:.1f})" if was else ""
    return [f"- {_ref(entry)}: {entry['current']} failures, {was} in the window before{factor}"]


def _group(entry: dict) -> list[str]:
    lines = [
        f"- Group {entry['id']} ({entry['status']}; {', '.join(entry['signals']) or 'no signal'}):"
    ]
    lines += [f"  - {_ref(pattern)}" for pattern in entry["patterns"]]
    lines += [f"  - evidence: {_link(link)}" for link in entry["links"]]
    return lines


def _link(link: dict) -> str:
    a, b = link["patterns"]
    if link["signal"] == "dependency":
        return f"#{a} and #{b} both name {_quoted(link['dependency'])}"
    agents = _some([inline(agent, 80) for agent in link["agents"]])
    if link["signal"] == "coincidence":
        starts = _some(
            [_when(c["start"]) for c in reversed(link["coincidences"])],
            total=link["coincidence_count"],
        )
        return (
            f"#{a} and #{b} started and stopped together {link['coincidence_count']} "
            f"time(s), {link['expected']:.2f} expected by chance (p = {link['p_value']:.2g}), "
            f"for agents {agents}, at {starts}"
        )
    # Evidence stored before coincidences: hourly counts that rose and fell together.
    hours = _some([_when(hour) for hour in link["windows"]], total=link.get("window_count"))
    return (
        f"#{a} and #{b} rise and fall together (r = {link['correlation']:.2f}) "
        f"for agents {agents}, in hours {hours}"
    )


def _some(items: list, total: int | None = None) -> str:
    total = len(items) if total is None else total
    shown = ", ".join(items[:EVIDENCE_ITEMS])
    return shown + (f" and {total - EVIDENCE_ITEMS} more" if total > EVIDENCE_ITEMS else "")


def _loop(entry: dict) -> list[str]:
    patterns = " then ".join(_ref(p) for p in entry["patterns"])
    return [
        f"- {inline(entry['agent'], 80)} / {inline(entry['task'], 120)}: {entry['kind']} "
        f"of {entry['length']} failures since {_when(entry['since'])}: {patterns}"
    ]


def _regression(entry: dict) -> list[str]:
    evidence = entry["evidence"]
    if entry.get("verdict") == recurrence.FAILING:
        why = (
            f"its lesson stopped working: {evidence['recent_worked']} of the latest "
            f"{evidence['recent_applications']} applications worked"
        )
    elif entry.get("verdict") == recurrence.RETURNED:
        why = (
            f"back at its pre-fix rate with no application that worked: "
            f"{evidence['failures_recent']} failures in the last {evidence['span_hours']} h, "
            f"{evidence['failures_before']} in as long before the fix"
        )
    else:  # stored before verdicts were kept
        why = "came back"
    return [
        f"- {_ref(entry['pattern'])}: {why}; back since {_when(entry['since'])}, {_fixed(entry)}"
    ]


def _handled(entry: dict) -> list[str]:
    evidence = entry["evidence"]
    return [
        f"- {_ref(entry['pattern'])}: recurring, handled: {evidence['failures_since']} "
        f"failures since the fix, its lesson worked in {evidence['worked']} of "
        f"{evidence['applications']} applications; {_fixed(entry)}"
    ]


def _fixed(entry: dict) -> str:
    """What counted as the fix, and since when."""
    evidence = entry["evidence"]
    if entry["kind"] == "lesson_approved":
        lessons = ", ".join(inline(lesson["error_pattern"], 80) for lesson in evidence["lessons"])
        return f"fixed by lesson approval ({lessons}) from {_when(entry['fixed_at'])}"
    return (
        f"fixed when all its failures were closed ({evidence['resolved_failures']} resolved, "
        f"quiet for {evidence['quiet_hours']} h) from {_when(entry['fixed_at'])}"
    )


def _lesson(entry: dict) -> list[str]:
    was = entry["previous"]
    change = f", was {was:.2f} ({entry['effectiveness'] - was:+.2f})" if was is not None else ""
    flag = (
        f"; flagged: {inline(entry['flagged_reason'] or 'for review', 120)}"
        if entry["flagged"]
        else ""
    )
    return [
        f"- **{inline(entry['error_pattern'], 120)}** ({entry['status']}): effectiveness "
        f"{entry['effectiveness']:.2f}{change} over {entry['applications']} "
        f"applications{flag}"
    ]


def _curation(entry: dict) -> list[str]:
    waiting = entry["unverified_lessons"]
    note = f"; {waiting} unverified lesson(s) waiting for review" if waiting else ""
    return [
        f"- {_ref(entry)} ({inline(entry['error_type'] or 'untyped', 60)}): "
        f"{entry['events']} failures, {entry['agents']} agents{note}"
    ]


_RENDERERS = {
    "new_patterns": _new,
    "rising_patterns": _rising,
    "root_cause_groups": _group,
    "loops": _loop,
    "regressions": _regression,
    "recurring_handled": _handled,
    "lessons_fell": _lesson,
    "curation_queue": _curation,
}
