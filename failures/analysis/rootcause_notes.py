"""Open root-cause groups as agents read them: the failure answer and the boot briefing say
"probably one cause with …", so an agent that meets one symptom of an incident waits for the
cause instead of retrying each symptom on its own.

A group is open while it is suggested or confirmed (a split one was ruled out). A pattern's open
group is on its row (``FailurePattern.root_cause_group``, kept by failures.analysis.rootcauses),
read with the pattern: answers about failures outside any group cost nothing more, and those
inside one cost one query for the group's members.
"""

from collections.abc import Iterable
from datetime import datetime

from config.moments import moment_parsed
from failures.models import RootCauseGroup, RootCauseMembership, pattern_ref
from failures.records.markdown import root_cause_note

OPEN = (RootCauseGroup.Status.SUGGESTED, RootCauseGroup.Status.CONFIRMED)


def root_causes_of(group_ids: Iterable[int]) -> dict[int, dict]:
    """The open groups among ``group_ids``: id -> group, status, member patterns (by id),
    agents and start of its latest joint burst (None for a group linked by a dependency only)."""
    memberships = (
        RootCauseMembership.objects.filter(group_id__in=set(group_ids), group__status__in=OPEN)
        .select_related("group", "pattern")
        .only(
            "group__status",
            "group__evidence",
            "pattern__fingerprint",
            "pattern__template",
        )
        .order_by("group_id", "pattern_id")
    )
    groups: dict[int, dict] = {}
    for membership in memberships:
        group = groups.get(membership.group_id)
        if group is None:
            latest = (membership.group.evidence or {}).get("latest") or {}
            group = groups[membership.group_id] = {
                "group": membership.group_id,
                "status": membership.group.status,
                "patterns": [],
                "agents": len(latest.get("agents", ())),
                "since": _moment(latest.get("since")),
            }
        group["patterns"].append(pattern_ref(membership.pattern))
    return groups


def root_cause_answer(*, pattern_id: int, group_id: int | None) -> dict | None:
    """What the answer to a failure of ``pattern_id`` says about its open group, if any: the
    other symptoms (``with``), agents, since when, and the note in words."""
    group = root_causes_of([group_id]).get(group_id) if group_id else None
    if group is None:
        return None
    others = [p for p in group["patterns"] if p["id"] != pattern_id]
    return {
        "group": group["group"],
        "status": group["status"],
        "with": others,
        "agents": group["agents"],
        "since": group["since"],
        "note": root_cause_note(others, agents=group["agents"], since=group["since"]),
    }


def _moment(value: str | None) -> datetime | None:
    if not value:
        return None
    # The job writes ISO 8601 moments: anything else is a bug, said loudly (ValueError).
    return moment_parsed(value)
