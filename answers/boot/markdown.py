"""The boot briefing as prompt-ready markdown. Pure, no Django.

Renders the dict ``answers.boot.composer.boot_context_build`` returns: a
``## Boot briefing for <agent>`` heading, then one ``###`` section per part of the briefing; an
empty one says "None.". Every value an agent sent (task names, errors, hints, templates,
checkpoints) goes through ``failures.records.markdown.inline``, so it renders as plain text on
its line; the sentences around it are the service's. Recovery hints are the agents' own word,
and the briefing says so.
"""

import json
from collections.abc import Callable, Mapping

from failures.records.markdown import inline, root_cause_note, side_effects_text, timestamp

# Longest error, hint or template shown on one line: a briefing is a summary; the JSON answer
# carries more, and /api/v1/failures all of it.
LINE_CHARS = 200
# Task names and agent names are short identifiers; a longer one is cut, not wrapped.
NAME_CHARS = 100


def boot_markdown(context: Mapping) -> str:
    """The whole briefing, sections separated by blank lines."""
    sections: list[tuple[str, list, Callable]] = [
        ("Skip", context["skip"], _skip),
        ("Resume", context["resume"], _resume),
        ("Hints", context["hints"], _hints),
        ("Loops", context["loops"], _loop),
        ("Root causes", context["root_causes"], _root_cause),
        ("Retry advice", context["retry_advice"], _advice),
        ("Recent failures", context["recent_failures"], _recent),
    ]
    if context.get("release"):
        sections.insert(
            0,
            (
                f"New in release {inline(context['release'], NAME_CHARS)}",
                context["new_in_release"],
                _new,
            ),
        )
    if context.get("fleet") is not None:
        sections.append(("Fleet", context["fleet"], _fleet))
    parts = [f"## Boot briefing for {inline(context['agent'], NAME_CHARS)}", _summary(context)]
    for title, items, render in sections:
        body = "\n".join(render(item) for item in items) if items else "None."
        parts.append(f"### {title}\n\n{body}")
    return "\n\n".join(parts) + "\n"


def _summary(context: Mapping) -> str:
    scope = "this agent and the fleet" if context["scope"] == "fleet" else "this agent"
    line = (
        f"Generated {timestamp(context['generated_at'])} for {scope}: failures of the last "
        f"{context['window_hours']} h; a task is skipped after {context['skip_after']} "
        "failures with one pattern and no success since."
    )
    if context.get("task_type"):
        line += f" Task type: {inline(context['task_type'], NAME_CHARS)}."
    return line


def _task(item: Mapping) -> str:
    return f"**{inline(item['task'], NAME_CHARS)}**"


def _quoted(pattern: Mapping) -> str:
    return f"“{inline(pattern['template'], LINE_CHARS)}”"


def _skip(item: Mapping) -> str:
    # The JSON's "why" in words, the agent's template set apart from the service's text.
    return (
        f"- {_task(item)} — skip until {timestamp(item['skip_until'])}: this task failed "
        f"{item['failures']} times with {_quoted(item['pattern'])} and no success since. "
        f"Last failed {timestamp(item['last_failed_at'])}."
    )


def _resume(item: Mapping) -> str:
    checkpoint = inline(json.dumps(item["checkpoint"], ensure_ascii=False), LINE_CHARS)
    return (
        f"- {_task(item)} — resume from checkpoint {checkpoint}. "
        f"Side effects: {side_effects_text(item['side_effects'])}. "
        f"Failed {timestamp(item['occurred_at'])} (failure {item['failure_id']}, attempt "
        f"{item['attempt_count']}): {inline(item['error'], LINE_CHARS)}"
    )


def _hints(item: Mapping) -> str:
    lines = [f"- {_task(item)}"]
    lines += [
        f"  - Hint (unreviewed, from this agent's failures): {inline(hint, LINE_CHARS)}"
        for hint in item["recovery_hints"]
    ]
    lines += [
        f"  - Approved lesson ({lesson['match']} match, effectiveness "
        f"{lesson['effectiveness']:.2f}): {inline(lesson['resolution'], LINE_CHARS)}"
        for lesson in item["lessons"]
    ]
    lines += [
        f"  - Related approved lesson (same error type only, not known to fix this): "
        f"{inline(lesson['resolution'], LINE_CHARS)}"
        for lesson in item.get("related", ())
    ]
    return "\n".join(lines)


def _loop(item: Mapping) -> str:
    since = timestamp(item["since"])
    if item["kind"] == "alternating":
        first, second = (_quoted(p) for p in item["patterns"])
        return (
            f"- {_task(item)} — this task alternates between {first} and {second}: "
            f"{item['length']} failures since {since}, no success between. Change the "
            "approach instead of retrying."
        )
    return (
        f"- {_task(item)} — this task failed the same way {item['length']} times in a row "
        f"since {since}: {_quoted(item['patterns'][0])}. Change the approach instead of "
        "retrying."
    )


def _root_cause(item: Mapping) -> str:
    tasks = ", ".join(_task({"task": task}) for task in item["tasks"])
    note = root_cause_note(
        item["patterns"],
        agents=item["agents"],
        since=item["since"],
        lead="Probably one cause behind",
        quote=inline,
    )
    return f"- {note} Your tasks: {tasks} (group {item['group']}, {item['status']})."


def _new(item: Mapping) -> str:
    previous = inline(item["previous"], NAME_CHARS)
    return (
        f"- {_quoted(item['pattern'])}: {item['failures']} failures since "
        f"{timestamp(item['first_seen'])}, none in {previous} over {item['tasks_before']} tasks "
        "of the same types. Likely this release's own fault, not the environment's."
    )


def _advice(item: Mapping) -> str:
    if item["retryable"] is None:
        verdict = "No advice yet"
    elif not item["retryable"]:
        verdict = "Don't retry"
    else:
        verdict = f"Retry after {item['after_seconds']} s" if item["after_seconds"] else "Retry"
    return f"- {_task(item)} — {verdict}: {item['reason']}."  # the service's own words


def _recent(item: Mapping) -> str:
    return (
        f"- {timestamp(item['occurred_at'])} · {_task(item)} · "
        f"{inline(item['error_type'], NAME_CHARS)}: {inline(item['error'], LINE_CHARS)} "
        f"({item['status']}, attempt {item['attempt_count']})"
    )


def _fleet(item: Mapping) -> str:
    agents = "1 other agent" if item["agents"] == 1 else f"{item['agents']} other agents"
    times = "once" if item["failures"] == 1 else f"{item['failures']} times"
    line = (
        f"- {_quoted(item['pattern'])} — across the fleet, {agents} failed {times} with it "
        f"in these task types, last seen {timestamp(item['last_seen'])}."
    )
    if item["recovery_hint"]:
        line += (
            f" Hint (unreviewed, from agent {inline(item['recovery_hint_agent'], NAME_CHARS)}):"
            f" {inline(item['recovery_hint'], LINE_CHARS)}"
        )
    return line
