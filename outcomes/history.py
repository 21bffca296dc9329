"""The history context for an agent's prompt: recent successes, failures to avoid, related tasks.

Every read here is an index range scan with a LIMIT (see Outcome.Meta.indexes and the plan test):
the cost does not grow with the size of the ledger. Answers are cached per agent under its
generation, so a new outcome of the agent makes them unreachable as it commits (outcomes.cache).
"""

import hashlib
import json
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from failures.records.selectors import pattern_id_of_message
from lessons.selectors import lessons_best_by_pattern

from . import history_markdown as md
from . import queries
from .cache import history_generation
from .ranking import Focus, is_related, score, shared_evidence
from .validation import files_of, normalise_path

# Candidates read per lookup key before ranking: enough to rank, few enough to stay cheap.
CANDIDATES_PER_KEY = 40
# Lookup keys used per request: a task that names 50 files is ranked on its first 8.
MAX_FILE_KEYS = 8
MAX_PATTERN_KEYS = 3


@dataclass(frozen=True)
class HistoryQuery:
    agent: str
    task_type: str = ""
    task_id: str = ""
    files: tuple = ()
    error_type: str = ""
    error_message: str = ""
    budget_tokens: int | None = None


@dataclass
class Limits:
    successes: int
    success_days: int
    failures: int
    failure_days: int
    related: int
    related_days: int

    @classmethod
    def from_settings(cls) -> "Limits":
        return cls(**settings.HINDSIGHT_HISTORY_LIMITS)


@dataclass
class _Found:
    successes: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    related: list = field(default_factory=list)


def history_context(query: HistoryQuery) -> dict:
    """The seed's answer (historyContext, historyTokens, metadata.historyStats), cached."""
    if not settings.AGENT_ENABLE_TASK_HISTORY:
        return _answer("", _Found(), query, enabled=False)
    key = _cache_key(query, history_generation(query.agent))
    cached = cache.get(key)
    if cached is not None:
        cached["metadata"]["cached"] = True
        return cached
    limits = Limits.from_settings()
    found = history_items(query, limits)

    def render(successes: list[md.Item], failures: list[md.Item], related: list[md.Item]) -> str:
        return md.render(
            successes,
            failures,
            related,
            success_days=limits.success_days,
            failure_days=limits.failure_days,
        )

    dropped = md.trim_to_budget(
        [found.successes, found.failures, found.related], query.budget_tokens, render
    )
    answer = _answer(
        render(found.successes, found.failures, found.related), found, query, dropped=dropped
    )
    cache.set(key, answer, settings.HINDSIGHT_HISTORY_CACHE_SECONDS)
    return answer


def _cache_key(query: HistoryQuery, generation: str) -> str:
    raw = json.dumps(asdict(query), sort_keys=True)
    digest = hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()
    return f"outcomes:history:{generation}:{digest}"


def _answer(
    text: str, found: _Found, query: HistoryQuery, *, enabled: bool = True, dropped: int = 0
) -> dict:
    note = (
        ""
        if text
        else "Task history is disabled (AGENT_ENABLE_TASK_HISTORY=false)."
        if not enabled
        else "No task history yet for this agent and task."
    )
    return {
        "historyContext": text,
        "historyTokens": md.estimate_tokens(text),
        "metadata": {
            "enabled": enabled,
            "historyStats": {
                "recentSuccesses": len(found.successes),
                "recentFailures": len(found.failures),
                "relatedTasks": len(found.related),
            },
            "trimmed": dropped,
            "budgetTokens": query.budget_tokens,
            "cached": False,
            "note": note,
            "generatedAt": timezone.now().isoformat(),
        },
    }


def history_items(query: HistoryQuery, limits: Limits) -> _Found:
    """The three sections' items, each scored against the task at hand (for trimming)."""
    now = timezone.now()
    since = now - timedelta(days=limits.related_days)
    recent, own_task = _first_read(query, limits, now, since)
    found = _Found(successes=recent["success"], failures=recent["failure"])
    focus = _focus(query, own_task)
    shown = {row["pk"] for row in found.successes + found.failures}
    candidates = {
        row["pk"]: row for row in own_task + _candidates(focus, since) if row["pk"] not in shown
    }
    found.related = _rank_related(focus, candidates.values(), now)[: limits.related]
    _score(found.successes + found.failures, focus, now)
    _lessons(found.failures + [r for r in found.related if r["outcome"] == "failure"])
    return _as_items(found, query)


def _first_read(
    query: HistoryQuery, limits: Limits, now: datetime, since: datetime
) -> tuple[dict, list]:
    """The agent's latest successes and failures (of the task type when given), newest first,
    and the task's attempts since ``since`` (when given): one read of bounded parts."""
    recent: dict[str, list[dict]] = {"success": [], "failure": []}
    own_task: list[dict] = []
    for tag, row in queries.history_first_read(
        agent=query.agent,
        task_type=query.task_type,
        recent=[
            ("success", now - timedelta(days=limits.success_days), limits.successes),
            ("failure", now - timedelta(days=limits.failure_days), limits.failures),
        ],
        task_id=query.task_id,
        task_since=since,
        task_limit=CANDIDATES_PER_KEY,
    ):
        (own_task if tag == "t" else recent[row["outcome"]]).append(row)
    for rows in (*recent.values(), own_task):  # the parts come back in no promised order
        rows.sort(key=lambda row: row["occurred_at"], reverse=True)
    return recent, own_task


def _focus(query: HistoryQuery, own_task: list) -> Focus:
    """The files, patterns and error types of the task: asked for, and from its earlier tries."""
    files = {normalise_path(path) for path in query.files}
    patterns = {row["pattern_id"] for row in own_task if row["pattern_id"]}
    error_types = {query.error_type} if query.error_type else set()
    for row in own_task:
        files.update(_row_files(row))
        error_types.update([row["error_type"]] if row["error_type"] else [])
    if query.error_message:
        pattern = pattern_id_of_message(message=query.error_message)
        patterns.update([pattern] if pattern else [])
    return Focus(
        task_id=query.task_id,
        task_type=query.task_type,
        files=frozenset(files),
        patterns=frozenset(patterns),
        error_types=frozenset(error_types),
    )


def _candidates(focus: Focus, since: datetime) -> list[dict]:
    """Recent outcomes sharing a file, a pattern or an error type with the focus (see
    queries.history_candidates)."""
    keys = (
        [("path", path) for path in sorted(focus.files)[:MAX_FILE_KEYS]]
        + [("pattern_id", pk) for pk in sorted(focus.patterns)[:MAX_PATTERN_KEYS]]
        + [("error_type", name) for name in sorted(focus.error_types)[:2]]
    )
    if not keys:
        return []
    return queries.history_candidates(keys, since=since, limit=CANDIDATES_PER_KEY)


def _row_files(row: dict) -> tuple[str, ...]:
    """The files the row names (worked out once per row: scoring and the item both use them)."""
    if "files" not in row:
        row["files"] = files_of(row["context"], row["result"], strict=False)
    return row["files"]


def _evaluate(row: dict, focus: Focus, now: datetime) -> dict:
    """Score ``row`` against the focus (kept on the row); answer what it shares with it."""
    evidence = shared_evidence(
        focus,
        task_id=row["task_id"],
        files=_row_files(row),
        pattern_id=row["pattern_id"],
        error_type=row["error_type"],
    )
    row["score"] = score(
        focus, evidence, task_type=row["task_type"], occurred_at=row["occurred_at"], now=now
    )
    return evidence


def _rank_related(focus: Focus, rows, now: datetime) -> list[dict]:
    related = [row for row in rows if is_related(_evaluate(row, focus, now))]
    return sorted(related, key=lambda row: (-row["score"], -row["occurred_at"].timestamp()))


def _score(rows: list[dict], focus: Focus, now: datetime) -> None:
    for row in rows:
        _evaluate(row, focus, now)


def _lessons(rows: list[dict]) -> None:
    """The best lesson for each failed row's pattern (approved first; rejected never)."""
    best = lessons_best_by_pattern({row["pattern_id"] for row in rows if row["pattern_id"]})
    for row in rows:
        row["lesson"] = best.get(row["pattern_id"])


def _as_items(found: _Found, query: HistoryQuery) -> _Found:
    return _Found(
        *[
            [_item(row, query) for row in rows]
            for rows in (found.successes, found.failures, found.related)
        ]
    )


def _item(row: dict, query: HistoryQuery) -> md.Item:
    context = row["context"] if isinstance(row["context"], dict) else {}
    result = row["result"] if isinstance(row["result"], dict) else {}
    error = context.get("error_message") or context.get("error") or ""
    approach = result.get("approach") or ""
    return md.Item(
        outcome=row["outcome"],
        task_type=row["task_type"],
        task_id=row["task_id"],
        files=_row_files(row),
        approach=approach if isinstance(approach, str) else "",
        duration_ms=row["duration_ms"],
        error=error if isinstance(error, str) else "",
        error_type=row["error_type"],
        lesson=row.get("lesson"),
        by=row["agent"] if row["agent"] != query.agent else "",
        score=row.get("score", 0.0),
        key=row["pk"],
    )
