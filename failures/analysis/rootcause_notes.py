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
from failures.models import RootCauseGroup, RootCauseMembership
from failures.records.markdown import root_cause_note

OPEN = (RootCauseGroup.Status.SUGGESTED, RootCauseGroup.Status.CONFIRMED)


def root_causes_of(group_ids: Iterable[int]) -> dict[int, dict]:
    """The open groups among ``group_ids``: id -> group, status, member patterns (by id),
    agents and start of its latest joint burst (None for a group linked by a dependency only)."""
    rows = (
        RootCauseMembership.objects.filter(group_id__in=set(group_ids), group__status__in=OPEN)
        .order_by("group_id", "pattern_id")
        .values_list(
            "group_id",
            "group__status",
            "group__evidence__latest",
            "pattern_id",
            "pattern__fingerprint",
            "pattern__template",
        )
    )
    groups: dict[int, dict] = {}
    for group_id, status, latest, pk, fingerprint, template in rows:
        group = groups.get(group_id)
        if group is None:
            latest = latest or {}
            group = groups[group_id] = {
                "group": group_id,
                "status": status,
                "patterns": [],
                "agents": len(latest.get("agents", ())),
                "since": _moment(latest.get("since")),
            }
        group["patterns"].append({"id": pk, "fingerprint": fingerprint, "template": template})
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
