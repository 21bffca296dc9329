"""The issue's scripted scenario, shared by the root-cause and report tests.

Agents a, b and c see two faults spike together in the same two hours: the database refusing
connections and the payments API timing out. A third fault fails steadily every hour of the
week for all three, rising and falling with nothing.
"""

from datetime import datetime, timedelta

from failures.models import Failure
from failures.records.services import failures_record_many

REFUSED = "Connection refused to db-primary:5432"
TIMEOUT = "Timeout reading from payments-api"
STEADY = "KeyError: 'user_id' in order serializer"
AGENTS = ("a", "b", "c")
SPIKE_HOURS_AGO = (30, 5)
SPIKE_PER_AGENT = 4  # failures of each spiking fault per agent and spike hour
WEEK_HOURS = 7 * 24


def entry(agent: str, task: str, error: str, at: datetime, error_type: str = "connection") -> dict:
    return {
        "agent": agent,
        "task": task,
        "error": error,
        "error_type": error_type,
        "occurred_at": at,
        "task_type": "orders",
    }


def spike_scenario(now: datetime) -> dict[str, int]:
    """Record the scenario's failures (every task distinct, so no loops); return the pattern id
    of each fault by name: refused, timeout, steady."""
    entries = []
    for hours_ago in range(1, WEEK_HOURS):
        for i, agent in enumerate(AGENTS):
            # One or two an hour, varying, so "steady" is not a flat line.
            for k in range(1 + (hours_ago + i) % 3 // 2):
                entries.append(
                    entry(
                        agent,
                        f"orders-{hours_ago}-{k}",
                        STEADY,
                        now - timedelta(hours=hours_ago, minutes=7 + k),
                        error_type="key_error",
                    )
                )
    for hours_ago in SPIKE_HOURS_AGO:
        # Nine minutes each (minutes 20 to 29 of the hour); where in the hour does not matter.
        hour = (now - timedelta(hours=hours_ago)).replace(minute=20, second=0, microsecond=0)
        for agent in AGENTS:
            for k in range(SPIKE_PER_AGENT):
                at = hour + timedelta(minutes=k * 3)
                entries.append(entry(agent, f"db-{hours_ago}-{k}", REFUSED, at))
                entries.append(entry(agent, f"pay-{hours_ago}-{k}", TIMEOUT, at, "timeout"))
    # One stray refusal elsewhere: the two spiking series are alike, not identical.
    entries.append(entry("a", "db-stray", REFUSED, now - timedelta(hours=20)))
    failures_record_many(entries=entries)
    return {
        name: Failure.objects.filter(error=error).values_list("pattern_id", flat=True)[0]
        for name, error in (("refused", REFUSED), ("timeout", TIMEOUT), ("steady", STEADY))
    }
