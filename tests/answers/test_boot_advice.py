"""Boot advice in words an agent acts on: each retry rule, skips, loops and the fleet view, and
whose every count is (this task, this agent's own report, the fleet); retry advice is the same
in the boot briefing and the failure answer."""

from datetime import timedelta

import pytest
from django.utils import timezone

from answers.boot.composer import boot_context_build
from answers.boot.markdown import boot_markdown
from failures.records.markdown import timestamp
from failures.records.services import failure_record, failures_resolve

pytestmark = pytest.mark.django_db

NOW = timezone.now()
ERROR = "Deploy failed: registry rejected the image push"
TASK = "this task failed {} with this error since its last success"


def fail(agent="me", task="deploy", minutes_ago=5, **fields):
    return failure_record(
        agent=agent,
        task=task,
        error=ERROR,
        task_type="release",
        occurred_at=NOW - timedelta(minutes=minutes_ago),
        **fields,
    )


def others(count, **fields):
    """``count`` failures of the same kind by other agents, each on its own task."""
    for n in range(count):
        fail(agent=f"peer-{n}", task=f"peer-task-{n}", minutes_ago=60 + n, **fields)


def recovered_elsewhere():
    fail(agent="peer", task="ship", minutes_ago=90)
    failures_resolve(agent="peer", task="ship")


# (rule, what happened, the advice line of the briefing for task "deploy" of agent "me")
CASES = [
    (
        "the fleet never recovered",
        lambda: (others(4), fail()),
        "Don't retry: across the fleet, 5 failures of this kind and no retry has ever succeeded; "
        + TASK.format("once"),
    ),
    (
        "the fleet reported it unsafe",
        lambda: (others(2, retry_safe=False), fail(minutes_ago=6), fail()),
        "Don't retry: across the fleet, failures of this kind were reported unsafe to retry "
        "2 times; " + TASK.format("2 times"),
    ),
    (
        "this agent reported it unsafe",
        lambda: (fail(retry_safe=False),),
        "Don't retry: this agent reported this failure as unsafe to retry; " + TASK.format("once"),
    ),
    (
        "the fleet recovered",
        lambda: (
            recovered_elsewhere(),
            fail(minutes_ago=7),
            fail(minutes_ago=6),
            fail(retry_after=60),
        ),
        "Retry after 60 s: across the fleet, a retry succeeded after 1 of 4 failures of this kind; "
        + TASK.format("3 times"),
    ),
    (
        "this agent reported it safe",
        lambda: (fail(retry_safe=True),),
        "Retry: this agent reported this failure as safe to retry; across the fleet, 1 failure of "
        "this kind so far, none recovered yet; " + TASK.format("once"),
    ),
    (
        "too little history",
        lambda: (others(1), fail()),
        "No advice yet: across the fleet, 2 failures of this kind so far, none recovered yet: too "
        "few to advise (3 with no recovery would mean do not retry); " + TASK.format("once"),
    ),
]


def section(title: str, scope: str = "agent") -> list[str]:
    """The lines of one section of the briefing for agent "me"."""
    text = boot_markdown(boot_context_build(agent="me", scope=scope, now=NOW))
    return text.split(f"### {title}\n\n")[1].split("\n\n")[0].splitlines()


def advice_line(scope="agent") -> str:
    [line] = section("Retry advice", scope)
    return line


@pytest.mark.parametrize(
    "happened, expected", [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
@pytest.mark.parametrize("scope", ["agent", "fleet"])
def test_each_rule_in_words_with_whose_counts_they_are(happened, expected, scope):
    happened()
    assert advice_line(scope) == f"- **deploy** — {expected}."


def test_the_task_count_is_this_tasks_failures_of_this_kind_since_its_last_success():
    others(4)
    fail(minutes_ago=30)
    failures_resolve(agent="me", task="deploy")  # a success: earlier failures are not counted
    fail(task="other-task", minutes_ago=20)  # another task of this agent
    failure_record(
        agent="me",
        task="deploy",
        error="Disk quota exceeded on /var/lib/build",
        task_type="release",
        occurred_at=NOW - timedelta(minutes=9),
    )  # another kind
    fail(minutes_ago=8)
    fail(minutes_ago=7)
    advice = boot_context_build(agent="me", now=NOW)["retry_advice"]
    [deploy] = [entry for entry in advice if entry["task"] == "deploy"]
    assert deploy["reason"] == (
        "across the fleet, a retry succeeded after 1 of 8 failures of "
        "this kind; " + TASK.format("2 times")
    )


def test_the_failure_answer_gives_the_same_advice_as_the_briefing(api):
    others(4)
    fail(minutes_ago=10)
    body = api.post(
        "/api/v1/failures",
        {"agent": "me", "task": "deploy", "task_type": "release", "error": ERROR},
        format="json",
    ).json()
    assert body["retry_advice"] == {
        "retryable": False,
        "after_seconds": None,
        "reason": "across the fleet, 6 failures of this kind and no retry has ever succeeded; "
        + TASK.format("2 times"),
    }
    [briefed] = boot_context_build(agent="me", now=timezone.now())["retry_advice"]
    assert briefed["reason"] == body["retry_advice"]["reason"]


def test_a_skip_and_a_repeat_loop_say_it_is_this_tasks_count():
    others(2)
    for minutes_ago in (30, 20, 10):
        last = fail(minutes_ago=minutes_ago)
    first = NOW - timedelta(minutes=30)
    [skip] = section("Skip")
    assert skip == (
        f"- **deploy** — skip until {timestamp(last.occurred_at + timedelta(minutes=30))}: this "
        f"task failed 3 times with “{ERROR}” and no success since. Last failed "
        f"{timestamp(last.occurred_at)}."
    )
    assert section("Loops") == [
        f"- **deploy** — this task failed the same way 3 times in a row since "
        f"{timestamp(first)}: “{ERROR}”. Change the approach instead of retrying."
    ]


def test_an_alternating_loop_says_it_is_this_task_and_what_to_do():
    other = "Deploy failed: health check timed out on canary"
    for minutes_ago, error in zip((40, 30, 20, 10), (ERROR, other) * 2):
        failure_record(
            agent="me",
            task="deploy",
            error=error,
            task_type="release",
            occurred_at=NOW - timedelta(minutes=minutes_ago),
        )
    assert section("Loops") == [
        f"- **deploy** — this task alternates between “{ERROR}” and “{other}”: 4 failures since "
        f"{timestamp(NOW - timedelta(minutes=40))}, no success between. Change the approach "
        "instead of retrying."
    ]


def test_the_fleet_view_says_the_counts_are_other_agents():
    fail()
    others(2)
    fail(agent="peer-0", task="again", minutes_ago=30)
    assert section("Fleet", scope="fleet") == [
        f"- “{ERROR}” — across the fleet, 2 other agents failed 3 times with it in these task "
        f"types, last seen {timestamp(NOW - timedelta(minutes=30))}."
    ]
