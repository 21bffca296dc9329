"""What an agent is told about a pattern and the release, model and prompt version it runs:
the pattern is new in one of them (failures.releases.rule), so the fault likely comes
with the agent's own change rather than from a provider or a dependency."""

from django.db.models import Q

from failures.models import Version, VersionPattern, pattern_ref
from failures.releases import rule as releases

KIND_WORDS = {
    Version.Kind.RELEASE: "release",
    Version.Kind.MODEL: "model",
    Version.Kind.PROMPT_VERSION: "prompt version",
}


def new_in_answer(*, pattern_id: int, **names: str) -> list[dict]:
    """Where the pattern is new among ``names`` (kind: name; blank names are skipped), as the
    release job last judged it."""
    wanted = Q()
    for kind, name in names.items():
        if name:
            wanted |= Q(version__kind=kind, version__name=name)
    if not wanted:
        return []
    found = (
        VersionPattern.objects.filter(
            wanted, pattern_id=pattern_id, verdict=VersionPattern.Verdict.NEW
        )
        .select_related("version__previous")
        .order_by("version__kind")
    )
    return [new_in_json(row) for row in found]


def new_in_json(row: VersionPattern) -> dict:
    version = row.version
    previous = version.previous.name if version.previous else ""
    words = KIND_WORDS[Version.Kind(version.kind)]
    return {
        "kind": version.kind,
        "name": version.name,
        "previous": previous,
        "tasks_before": row.tasks_compared,
        "note": f"new in {words} {version.name}: seen in no earlier {words}; {previous} ran "
        f"{row.tasks_compared} tasks of the same types without it",
    }


# A briefing lists at most this many patterns new in the agent's release, most seen first.
NEW_IN_RELEASE_CAP = 10


def new_in_release(release: str) -> list[dict]:
    """The patterns new in ``release``, as the release job last judged it."""
    found = (
        VersionPattern.objects.filter(
            version__kind=Version.Kind.RELEASE,
            version__name=release,
            verdict=VersionPattern.Verdict.NEW,
        )
        .select_related("pattern", "version__previous")
        .order_by("-failures", "pattern_id")[:NEW_IN_RELEASE_CAP]
    )
    return [
        {
            "pattern": pattern_ref(row.pattern),
            "failures": row.failures,
            "first_seen": row.first_seen,
            **new_in_json(row),
        }
        for row in found
    ]


def pattern_versions(pattern_id: int) -> dict[str, list[VersionPattern]]:
    """The releases, models and prompt versions a pattern was seen in (or is gone from), by
    kind, in the order they were first seen."""
    rows = (
        VersionPattern.objects.filter(pattern_id=pattern_id)
        .select_related("version__previous")
        .order_by("version__first_seen", "version__name")
    )
    found: dict[str, list[VersionPattern]] = {kind: [] for kind in Version.Kind.values}
    for row in rows:
        found[row.version.kind].append(row)
    return found


def pattern_versions_json(pattern_id: int) -> dict:
    """pattern_versions for the API, with the first release the pattern was seen in."""
    found = pattern_versions(pattern_id)
    seen = [row for row in found[Version.Kind.RELEASE] if row.failures]
    return {
        "first_release": seen[0].version.name if seen else None,
        **{
            f"{kind}s": [
                {
                    "name": row.version.name,
                    "verdict": row.verdict,
                    "failures": row.failures,
                    "first_seen": row.first_seen,
                    "last_seen": row.last_seen,
                    "tasks_compared": row.tasks_compared,
                }
                for row in rows
            ]
            for kind, rows in found.items()
        },
    }


def releases_list(*, kind: str = Version.Kind.RELEASE, limit: int = 50) -> list[dict]:
    """The latest ``limit`` versions of ``kind``, newest first, with their health, whether
    each is worse than its previous one, and the patterns new and gone in it."""
    versions = list(
        Version.objects.filter(kind=kind)
        .select_related("previous")
        .order_by("-first_seen", "name")[:limit]
    )
    verdicts: dict[int, dict[str, list[VersionPattern]]] = {
        version.pk: {"new": [], "gone": []} for version in versions
    }
    for row in (
        VersionPattern.objects.filter(
            version__in=versions,
            verdict__in=[VersionPattern.Verdict.NEW, VersionPattern.Verdict.GONE],
        )
        .select_related("pattern")
        .order_by("-failures", "pattern_id")
    ):
        verdicts[row.version_id][row.verdict].append(row)
    return [
        {
            "kind": version.kind,
            "name": version.name,
            "line": releases.line_of(version.name),
            "previous": version.previous.name if version.previous else None,
            "first_seen": version.first_seen,
            "last_seen": version.last_seen,
            "tasks": version.tasks,
            "failed_tasks": version.failed,
            "success_rate": version.success_rate,
            "failures": version.failures,
            "failures_per_100_tasks": version.failures_per_100,
            "worse_than_previous": version.worse,
            "worse_z": version.worse_z,
            "judged_at": version.judged_at,
            **{
                f"{verdict}_patterns": [
                    {
                        "pattern": pattern_ref(row.pattern),
                        "failures": row.failures,
                        "tasks_compared": row.tasks_compared,
                    }
                    for row in rows
                ]
                for verdict, rows in verdicts[version.pk].items()
            },
        }
        for version in versions
    ]
