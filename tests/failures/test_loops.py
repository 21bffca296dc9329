"""Loop detection over a task's pattern sequence since its last success: one table, no database."""

import pytest

from failures.analysis.loops import ALTERNATING, REPEAT, Loop, loop_detect

A, B, C = 11, 22, 33


@pytest.mark.parametrize(
    "name, sequence, options, expected",
    [
        ("nothing failed", [], {}, None),
        ("one failure", [A], {}, None),
        ("two of the same is not yet a loop", [A, A], {}, None),
        ("three of the same", [A, A, A], {}, Loop(REPEAT, (A,), 3, 0)),
        ("repeat after another failure", [B, A, A, A], {}, Loop(REPEAT, (A,), 3, 1)),
        ("long repeat counts every failure", [A] * 7, {}, Loop(REPEAT, (A,), 7, 0)),
        ("repeat broken at the tail is over", [A, A, A, B], {}, None),
        (
            "repeat threshold is configurable",
            [B, A, A],
            {"min_repeat": 2},
            Loop(REPEAT, (A,), 2, 1),
        ),
        ("raised repeat threshold", [A, A, A], {"min_repeat": 4}, None),
        ("A, B, A is too short to alternate", [A, B, A], {}, None),
        ("A, B, A, B alternates", [A, B, A, B], {}, Loop(ALTERNATING, (A, B), 4, 0)),
        (
            "alternation after another failure",
            [C, A, B, A, B, A],
            {},
            Loop(ALTERNATING, (A, B), 5, 1),
        ),
        ("alternation starting with B", [B, A, B, A], {}, Loop(ALTERNATING, (B, A), 4, 0)),
        ("raised alternation threshold", [A, B, A, B], {"min_alternating": 6}, None),
        ("three patterns taking turns are not two", [A, B, C, A, B, C], {}, None),
        ("alternation broken by a repeat", [A, B, A, B, B], {}, None),
        ("repeat after an alternation wins", [A, B, A, B, B, B], {}, Loop(REPEAT, (B,), 3, 3)),
        ("pairs are not an alternation", [A, A, B, B, A, A, B, B], {}, None),
        ("string ids work too", ["x", "y", "x", "y"], {}, Loop(ALTERNATING, ("x", "y"), 4, 0)),
    ],
)
def test_loop_detect(name, sequence, options, expected):
    assert loop_detect(sequence, **options) == expected


@pytest.mark.parametrize("options", [{"min_repeat": 1}, {"min_alternating": 2}])
def test_thresholds_that_would_call_anything_a_loop_are_refused(options):
    with pytest.raises(ValueError):
        loop_detect([A, B], **options)
