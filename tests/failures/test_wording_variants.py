"""One library's wording of one fault lands on one pattern, whatever varies per message; two
faults a library words alike stay apart. Measured on a corpus written blind
(wording_variants_corpus.py: messages as real libraries and tools print them, by a writer who
had not read the pattern engine), through the write path and then the incremental pattern job.

The figures are printed, the first contact's held as floors: a change that makes them worse
fails. Failures are recorded as agents record them (failures_record_many), each message under an
agent and task of its own; "together" means every message of a group ends on the same live
pattern (after merges)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from failures.live import live_of
from failures.models import Failure
from failures.records.services import failures_record_many
from failures.store.jobstate import SETTLE
from failures.store.pattern_job import patterns_update
from tests.failures.wording_variants_corpus import APART, SAME

pytestmark = pytest.mark.django_db

# First contact (161 wordings, 57 pairs): 113 wordings on one pattern as written, 116 after the
# job, 56 pairs kept apart; with a quoted variable covering a quoted word (``"<*>"`` for
# ``"localhost"``): 114 and 120; with compressed IPv6 addresses (``[::1]:6379``, ``:::3000``)
# as values: 115 and 122. Raise them as the engine improves.
FLOORS = {"together_at_write": 0.71, "together_after_job": 0.75, "apart": 0.98}


def record(messages: list[str], tag: str) -> list[Failure]:
    return failures_record_many(
        entries=[
            {"agent": f"agent-{tag}-{i}", "task": f"task-{tag}-{i}", "error": message}
            for i, message in enumerate(messages)
        ]
    )


def live_patterns(failures: list[Failure]) -> set[int]:
    return {
        live_of(Failure.objects.select_related("pattern").get(pk=f.pk).pattern).pk
        for f in failures
    }


def job() -> None:
    patterns_update(now=timezone.now() + SETTLE + timedelta(minutes=1))


def test_a_wordings_variants_land_on_one_pattern():
    groups = [(group, record(group["messages"], str(n))) for n, group in enumerate(SAME)]
    at_write = [group for group, failures in groups if len(live_patterns(failures)) == 1]
    job()
    split = [
        (group, len(live_patterns(failures)))
        for group, failures in groups
        if len(live_patterns(failures)) > 1
    ]
    together = (len(SAME) - len(split)) / len(SAME)
    print(
        f"\none wording, 4 variants each: {len(at_write)} of {len(SAME)} groups on one pattern "
        f"as written, {len(SAME) - len(split)} after the pattern job ({together:.3f})"
    )
    for group, patterns in split:
        print(f"  split over {patterns}: {group['library']}: {group['fault']}")
    assert len(at_write) / len(SAME) >= FLOORS["together_at_write"]
    assert together >= FLOORS["together_after_job"]


def test_two_faults_worded_alike_stay_apart():
    pairs = [(pair, record([pair["a"], pair["b"]], f"p{n}")) for n, pair in enumerate(APART)]
    job()
    joined = [pair for pair, failures in pairs if len(live_patterns(failures)) == 1]
    apart = (len(APART) - len(joined)) / len(APART)
    print(
        f"\ntwo faults worded alike: {len(APART) - len(joined)} of {len(APART)} pairs kept "
        f"apart after the pattern job ({apart:.3f})"
    )
    for pair in joined:
        print(f"  joined: {pair['library']}: {pair['why']}")
    assert apart >= FLOORS["apart"]
