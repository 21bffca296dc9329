"""The demo fleet: simulated agents learn from each other's failures through Hindsight.

Four agents run tasks of five types for eight rounds through the client's ``Guard``. Each task
type has one injected fault whose fix is known: a provider rate limit (retry after a delay), a
stale token (refresh, then run again), a flaky page (retry), a partial write (resume from the
checkpoint) and a loop (two alternating errors; re-plan). An agent that meets a fault a second
time records a lesson for it; after each round from the second on, a human approves up to two
pending lessons (``manage.py demo_approve``, the admin's approve service). The fleet only acts
on approved lessons: the guard finds them in the failure's answer, applies the registered
strategy and reports whether it worked. Printed per round: the repeat failures per fault (its
failures after the fleet's first one that nothing recovered) and their total, the learning
curve. Seeded, so every run prints the same curve.

Without ``HINDSIGHT_URL`` it talks to http://HOST:PORT (``--host``, ``--port``; ``make demo``
passes its ``HOST`` and ``PORT``, 127.0.0.1 and 8000 as ``make run``) with a new write key: to the
service already answering there (``make run``, which shares this checkout's database), or else
to the embedded service (``manage.py runserver``) it serves there and stops at the end; the data
stays in ``var/``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import httpx
from hindsight_client import (
    Guard,
    Hindsight,
    SkipTask,
    Strategies,
    current_attempt,
    fallback,
    retry,
)

ROOT = Path(__file__).resolve().parents[1]
SEED = 7
AGENTS = 4
ROUNDS = 8
TASKS_PER_ROUND = 8  # per agent
FAULT_RATE = 0.6  # share of tasks that meet their type's fault
REVIEW_FROM = 2  # the human starts reviewing after this round
REVIEWS_PER_ROUND = 1  # a busy human: at most this many approvals per round
RATE_WINDOW = 0.01  # seconds the simulated provider stays limited; the lesson waits longer
FAULTS = ("rate_limit", "stale_token", "flaky_page", "partial_write", "loop")
TASK_TYPES = {
    "rate_limit": "summarize",
    "stale_token": "sync",
    "flaky_page": "fetch",
    "partial_write": "export",
    "loop": "plan",
}
RESOLUTIONS = {
    "rate_limit": "Provider 429: wait for the rate-limit window, then retry once.",
    "stale_token": "Token expired: refresh the session token, then run the task again.",
    "flaky_page": "The page times out now and then: retry up to three times.",
    "partial_write": "Partial write: resume from the checkpoint's resume_from, do not restart.",
    "loop": "Plan alternates between two rejections: re-plan from scratch instead of retrying.",
}


class FleetError(Exception):
    """An injected fault; ``error_type`` is what the guard records."""

    def __init__(self, message: str, error_type: str):
        super().__init__(message)
        self.error_type = error_type


@dataclass
class Job:
    """One task and the state of its injected fault."""

    id: str
    fault: str | None
    rng: random.Random
    calls: int = 0
    limited_until: float = 0.0
    token_fresh: bool = False
    rows_done: int = 0
    attempt: object = None

    def run(self) -> str:
        """The skill: fails as its fault says, else succeeds."""
        self.calls += 1
        self.attempt = self.attempt or current_attempt()
        if self.fault is None:
            return "done"
        return getattr(self, f"_{self.fault}")()

    def _rate_limit(self) -> str:
        if self.calls == 1:
            self.limited_until = time.monotonic() + RATE_WINDOW
        if time.monotonic() < self.limited_until:
            raise FleetError(
                f"429 Too Many Requests from provider llm-{self.rng.randint(1, 9)}: "
                f"rate limit of {self.rng.choice((60, 120))} requests per minute",
                "provider_rate_limit",
            )
        return "summarized"

    def _stale_token(self) -> str:
        if not self.token_fresh:
            raise FleetError(
                f"401 Unauthorized: session token expired {self.rng.randint(2, 90)} minutes ago",
                "stale_token",
            )
        return "synced"

    def _flaky_page(self) -> str:
        if self.calls == 1 or self.rng.random() < 0.3:
            raise FleetError(
                f"page https://shop.example.com/item/{self.rng.randint(100, 999)} "
                f"did not load within 5000 ms",
                "flaky_page",
            )
        return "fetched"

    def _partial_write(self) -> str:
        total = 100
        if self.rows_done == 0:
            self.rows_done = self.rng.randint(20, 80)
            # Left on the attempt so the guard records it with the failure, for resuming.
            current_attempt().checkpoint = {
                "done": self.rows_done,
                "total": total,
                "resume_from": self.rows_done + 1,
            }
        raise FleetError(
            f"partial write: connection reset after {self.rows_done} of {total} rows",
            "partial_write",
        )

    def _loop(self) -> str:
        # Every call meets the other rejection: retrying only goes round in circles.
        if self.calls % 2:
            raise FleetError("plan step 3 rejected: schema mismatch in field price", "plan_loop")
        raise FleetError("plan step 3 rejected: missing field currency", "plan_loop")


def work(job: Job) -> str:
    """The guarded skill; the strategies' fallbacks get the same argument."""
    return job.run()


def refresh_then_run(job: Job) -> str:
    """The stale-token fix: refresh the token, then run the task again."""
    job.token_fresh = True
    return job.run()


def resume(job: Job) -> str:
    """The partial-write fix: write the rows after the checkpoint only."""
    checkpoint = job.attempt.checkpoint if job.attempt else None
    if not checkpoint:
        raise FleetError("nothing to resume from", "partial_write")
    job.rows_done = checkpoint["total"]
    return "exported"


def replan(job: Job) -> str:
    """The loop fix: a fresh plan instead of a third go at the old one."""
    return "planned"


def strategies_for(tag: str) -> Strategies:
    """The fleet's registered strategies, keyed by this run's lesson names."""
    found = {
        "rate_limit": retry(delay=RATE_WINDOW * 2),
        "stale_token": fallback(refresh_then_run),
        "flaky_page": retry(attempts=3),
        "partial_write": fallback(resume),
        "loop": fallback(replan),
    }
    registry = ApprovedOnly()
    for fault, strategy in found.items():
        registry.on_pattern(f"{tag}_{fault}", strategy)
    return registry


class ApprovedOnly(Strategies):
    """The fleet's policy: act only on lessons a human has approved."""

    def pick(self, lessons):
        """The best approved lesson with a strategy."""
        return super().pick([l for l in lessons if l.get("status") == "approved"])


@dataclass
class Round:
    """What one round counted."""

    repeats: Counter = field(default_factory=Counter)
    applied: int = 0
    worked: int = 0
    lessons: int = 0
    approved: list = field(default_factory=list)


class Fleet:
    """The agents, their shared memory of first occurrences, and the round loop."""

    def __init__(self, hs: Hindsight, tag: str):
        self.hs, self.tag = hs, tag
        self.strategies = strategies_for(tag)
        self.rng = random.Random(SEED)
        self.seen: set[str] = set()  # faults the fleet has met at least once
        self.agent_seen: Counter = Counter()  # (agent, fault) -> unrecovered failures
        self.recorded: set[tuple[str, str]] = set()

    def play_round(self, number: int) -> Round:
        """Every agent runs its tasks; returns the round's counts."""
        counts = Round()
        for index in range(1, AGENTS + 1):
            agent = f"demo-agent-{index}"
            for task in range(1, TASKS_PER_ROUND + 1):
                fault = self.rng.choice(FAULTS)
                job = Job(
                    f"{self.tag}-r{number}-a{index}-t{task}",
                    fault if self.rng.random() < FAULT_RATE else None,
                    random.Random(self.rng.random()),
                )
                self._run(agent, fault, job, counts)
        return counts

    def _run(self, agent: str, fault: str, job: Job, counts: Round) -> None:
        task_type = TASK_TYPES[fault]
        guard = Guard(
            self.hs,
            task_type=task_type,
            task=job.id,
            agent=agent,
            strategies=self.strategies,
            skill_name=task_type,
        )
        try:
            guard.run(work, job)
        except SkipTask:
            return
        except FleetError as exc:
            self._unrecovered(agent, job, exc, task_type, counts)
            return
        if job.attempt is not None and job.attempt.lesson is not None:
            counts.applied += 1
            counts.worked += 1

    def _unrecovered(self, agent, job, exc, task_type, counts) -> None:
        """Count a repeat failure, record the failed outcome, and maybe a lesson."""
        if job.attempt is not None and job.attempt.lesson is not None:
            counts.applied += 1  # a lesson was applied and did not work
        if job.fault in self.seen:
            counts.repeats[job.fault] += 1
        self.seen.add(job.fault)
        self.hs.record_outcome(
            job.id, task_type, "failure", agent=agent, context={"error_message": str(exc)}
        )
        self.agent_seen[agent, job.fault] += 1
        # The second time an agent meets a fault it works out the fix and writes it down.
        if self.agent_seen[agent, job.fault] >= 2 and (agent, job.fault) not in self.recorded:
            self.recorded.add((agent, job.fault))
            self.hs.record_lesson(
                f"{self.tag}_{job.fault}",
                exc.error_type,
                RESOLUTIONS[job.fault],
                skill_name=task_type,
                error_message=str(exc),
            )
            counts.lessons += 1


def approve(tag: str) -> list[str]:
    """A human reviews the queue: approve up to REVIEWS_PER_ROUND of this run's lessons."""
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "demo_approve",
            f"{tag}_",
            "--limit",
            str(REVIEWS_PER_ROUND),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split()


def write_key() -> str:
    """A new write key in this checkout's database, as ``manage.py apikey create`` prints it."""
    created = subprocess.run(
        [sys.executable, "manage.py", "apikey", "create", "demo-fleet", "--scope", "write"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return created.stdout.strip().splitlines()[-1]


def answers(url: str) -> bool:
    """Whether a Hindsight answers its health check at ``url``."""
    try:
        return httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def service(host: str, port: int):
    """(url, key): the configured service; else the one answering at host:port, or the embedded
    one served there until the end."""
    if os.environ.get("HINDSIGHT_URL") and os.environ.get("HINDSIGHT_API_KEY"):
        yield os.environ["HINDSIGHT_URL"], os.environ["HINDSIGHT_API_KEY"]
        return
    url = f"http://{host}:{port}"
    if answers(url):
        key = write_key()
        known = httpx.get(
            f"{url}/api/v1/lessons",
            params={"per_page": 1},
            timeout=10,
            headers={"Authorization": f"Bearer {key}"},
        )
        if known.status_code != 200:
            sys.exit(
                f"the service on {url} does not use this checkout's database (it refused a "
                f"key made here: {known.status_code}); stop it, or run the demo on "
                f"another port (make demo PORT=...)"
            )
        print(f"Using the service on {url} for the demo")
        yield url, key
        return
    log = tempfile.NamedTemporaryFile("w", prefix="hindsight-demo-", suffix=".log", delete=False)
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"{host}:{port}"],
        cwd=ROOT,
        stdout=log,
        stderr=log,
    )
    try:
        wait_for(url, server, log.name)
        print(f"Serving the embedded service on {url} for the demo (log: {log.name})")
        yield url, write_key()
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def wait_for(url: str, server: subprocess.Popen, log_name: str) -> None:
    """Until the service answers its health check; fail if the server died or 60 s passed."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the server stopped; see {log_name}")
        if answers(url):
            return
        time.sleep(0.2)
    sys.exit(f"the server did not answer within 60 s; see {log_name}")


def print_round(number: int, counts: Round) -> None:
    """One line of the table."""
    cells = "  ".join(f"{counts.repeats[fault]:>{len(fault)}}" for fault in FAULTS)
    print(
        f"{number:>5}  {cells}  {sum(counts.repeats.values()):>5}  {counts.lessons:>7}"
        f"  {counts.applied:>7}  {counts.worked:>6}"
    )


def play(hs: Hindsight, tag: str) -> list[Round]:
    """All rounds, printing each and the approvals between them."""
    fleet = Fleet(hs, tag)
    print(f"round  {'  '.join(FAULTS)}  total  lessons  applied  worked")
    rounds = []
    for number in range(1, ROUNDS + 1):
        counts = fleet.play_round(number)
        print_round(number, counts)
        if REVIEW_FROM <= number < ROUNDS:
            counts.approved = approve(tag)
            if counts.approved:
                print(
                    f"       approving {len(counts.approved)} lesson(s) (as a human would in "
                    f"the admin): {', '.join(counts.approved)}"
                )
        rounds.append(counts)
    return rounds


def main() -> None:
    """Run the fleet and print the learning curve."""
    parser = argparse.ArgumentParser(description="The demo fleet.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    started = time.monotonic()
    tag = "demo" + datetime.now(timezone.utc).strftime("%m%d%H%M%S")
    print(
        f"Demo fleet {tag}: {AGENTS} agents, {ROUNDS} rounds of {TASKS_PER_ROUND} tasks each,"
        f" seed {SEED}. Repeat failures per fault (unrecovered, after the fleet's first):"
    )
    with service(args.host, args.port) as (url, key), tempfile.TemporaryDirectory() as spool:
        with Hindsight(url, key, spool_dir=spool) as hs:
            rounds = play(hs, tag)
            hs.flush()
    curve = [sum(r.repeats.values()) for r in rounds]
    print(f"curve: {' '.join(map(str, curve))}")
    print(
        f"lessons recorded: {sum(r.lessons for r in rounds)}  "
        f"approved: {sum(len(r.approved) for r in rounds)}  "
        f"applied: {sum(r.applied for r in rounds)}  worked: {sum(r.worked for r in rounds)}"
    )
    print(f"finished in {time.monotonic() - started:.1f} s; the data stays for the dashboard")


if __name__ == "__main__":
    main()
