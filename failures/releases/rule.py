"""Which release (or model, or prompt version) brought a fault: the rule, pure (no Django).

Agents tag what they record with the release they run, the model behind them and their
prompts' version. Each kind is judged the same way; below, "release" stands for any of them.
Releases of one agent line follow each other in the order they were first seen: a name
``coder@1.4.2`` belongs to the line ``coder`` (as Sentry spells releases), a name without ``@``
to the fleet's one unnamed line, and a release's previous one is the latest of its line first
seen before it.

A task is one recorded outcome (one attempt at a task). The evidence is counted per task type,
because a release that ran other kinds of tasks could not have met a fault of these:

* NEW: a pattern seen in a release and in no earlier release of its line is new in it only when
  the previous release ran enough of the same task types that it would have met the fault too,
  at the rate the new release meets it. Were the fault's rate per task of each type the same in
  both, each of its k failures of type t would have fallen in the new release with the chance
  n_new / (n_new + n_previous) of that type's tasks; the chance that all of them fell there is
  the product. Below ALPHA, the previous release did not have the fault. A rare fault that the
  old release simply never happened to meet keeps a large chance and is not called new.
* UNDECIDED: seen in no earlier release, but the previous one ran too few tasks of its types to
  tell (or there is no previous release).
* KNOWN: seen in an earlier release of the line.
* GONE: seen in the previous release and not in this one, and the same chance, the other way
  round, is below ALPHA: this release ran enough of its task types to have met it.

A release is WORSE than its previous one when its failed tasks exceed what the previous one's
failure rate per task type predicts for its task mix beyond WORSE_Z standard deviations (the
two releases' failures of each type split between them in proportion to their tasks, were the
rate the same; task types only one of them ran are left out).
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass

NEW, UNDECIDED, KNOWN, GONE = "new", "undecided", "known", "gone"
# One chance in a hundred: a fault the previous release had at the same rate would have shown
# there with 99 % probability.
ALPHA = 0.01
# A one-sided test at the same 1 %: z above 2.33.
WORSE_Z = 2.33


def line_of(name: str) -> str:
    """The line a release belongs to: what comes before its last ``@`` (``coder@1.4.2``), or
    the fleet's unnamed line."""
    return name.rpartition("@")[0]


def chance_all_here(
    failures: Mapping[str, int], here: Mapping[str, int], there: Mapping[str, int]
) -> float:
    """The chance that every one of ``failures`` (per task type) fell ``here`` and none
    ``there``, were the fault's rate per task of each type the same in both (``here`` and
    ``there``: tasks per task type)."""
    chance = 1.0
    for task_type, count in failures.items():
        ours, theirs = here.get(task_type, 0), there.get(task_type, 0)
        if ours + theirs and count:
            chance *= (ours / (ours + theirs)) ** count
    return chance


def tasks_of_types(tasks: Mapping[str, int], types) -> int:
    """How many of ``tasks`` (per task type) were of ``types``."""
    return sum(tasks.get(task_type, 0) for task_type in types)


def first_seen_verdict(
    failures: Mapping[str, int],
    tasks: Mapping[str, int],
    previous_tasks: Mapping[str, int] | None,
    *,
    seen_earlier: bool,
) -> str:
    """The verdict on a pattern seen in a release (``failures`` per task type there; ``tasks``
    and ``previous_tasks`` per task type of the release and of its previous one, None when it
    has none)."""
    if seen_earlier:
        return KNOWN
    if previous_tasks is None or chance_all_here(failures, tasks, previous_tasks) >= ALPHA:
        return UNDECIDED
    return NEW


def is_gone(
    previous_failures: Mapping[str, int],
    previous_tasks: Mapping[str, int],
    tasks: Mapping[str, int],
) -> bool:
    """Whether a pattern seen in the previous release (``previous_failures`` per task type) and
    not in this one is gone: this release ran enough of its task types to have met it."""
    return chance_all_here(previous_failures, previous_tasks, tasks) < ALPHA


@dataclass(frozen=True)
class Health:
    """A release's tasks and failed tasks (per task type)."""

    tasks: Mapping[str, int]
    failed: Mapping[str, int]


def worse_z(health: Health, previous: Health) -> float | None:
    """How far this release's failed tasks exceed what the previous one's rate per task type
    predicts, in standard deviations; None when no task type was run by both or no failure
    tells them apart."""
    observed = mean = variance = 0.0
    for task_type, ours in health.tasks.items():
        theirs = previous.tasks.get(task_type, 0)
        if not ours or not theirs:
            continue
        failed = health.failed.get(task_type, 0) + previous.failed.get(task_type, 0)
        share = ours / (ours + theirs)
        observed += health.failed.get(task_type, 0)
        mean += failed * share
        variance += failed * share * (1 - share)
    if not variance:
        return None
    return (observed - mean) / math.sqrt(variance)


def is_worse(z: float | None) -> bool:
    return z is not None and z > WORSE_Z
