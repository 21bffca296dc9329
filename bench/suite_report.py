"""The benchmark suite's table: each endpoint beside the baseline, its target and whether it is met;
and the resident memory of gunicorn's workers."""

import math
from dataclasses import dataclass
from pathlib import Path

from bench.loadgen import Result, percentile

BASELINE = "baseline"
# Neighbouring baselines whose req/s differ by more than this share make a verdict unsteady: the
# machine's speed changed while the endpoint between them was measured.
UNSTEADY = 0.2
MEMORY_LIMIT_MB = 150  # one web worker's resident memory after the run
BULK_FLOOR = 20_000  # outcomes/s through POST /outcomes/bulk
OTLP_SHARE = 0.8  # spans/s through POST /v1/traces, against bulk's outcomes/s of the same run


@dataclass(frozen=True)
class Target:
    """What an endpoint must reach: a share of the baseline's req/s, a multiple of its p99, or a
    number of outcomes/s; None where the issue sets none."""

    text: str
    min_rate_ratio: float | None = None
    max_p99_ratio: float | None = None
    min_outcomes: float | None = None

    def met(self, rate_ratio: float, p99_ratio: float, outcomes: float | None) -> bool:
        checks = [
            (self.min_rate_ratio, lambda v: rate_ratio >= v),
            (self.max_p99_ratio, lambda v: p99_ratio <= v),
            (self.min_outcomes, lambda v: outcomes is not None and outcomes >= v),
        ]
        return all(test(limit) for limit, test in checks if limit is not None)

    @property
    def relative(self) -> bool:
        """Whether the target is measured against the baseline (a ratio), not in absolute
        terms: only then can an unsteady baseline void the verdict."""
        return self.min_rate_ratio is not None or self.max_p99_ratio is not None


TARGETS = {
    "check": Target("≥0.45x req/s, p99 ≤3x", min_rate_ratio=0.45, max_p99_ratio=3.0),
    "boot": Target("≥0.45x req/s", min_rate_ratio=0.45),
    "history": Target("≥0.35x req/s", min_rate_ratio=0.35),
    "single": Target("≥0.45x req/s", min_rate_ratio=0.45),
    "bulk": Target(f"≥{BULK_FLOOR:,} outcomes/s", min_outcomes=BULK_FLOOR),
}


def outcomes_rate(result: Result, per_request: int) -> float:
    """Outcomes of answered (2xx) requests per second of the endpoint's wall time."""
    return (
        (result.requests - result.errors) * per_request / result.wall_s if result.wall_s else 0.0
    )


def _down(ratio: float) -> float:
    """A req/s ratio as printed: rounded down, so a ratio short of its target never reads as
    the target itself."""
    return math.floor(ratio * 1000) / 1000 if not math.isnan(ratio) else ratio


def _ratio(value: float, base: float) -> float:
    return value / base if base and not math.isnan(base) else math.nan


def baseline_after(name: str) -> str:
    """The name of the baseline measured right after endpoint ``name``."""
    return f"{BASELINE} (after {name})"


def pooled(*results: Result) -> Result:
    """Several measurements of one endpoint as one: all their requests over all their time."""
    return Result(
        requests=sum(r.requests for r in results),
        errors=sum(r.errors for r in results),
        wall_s=sum(r.wall_s for r in results),
        server_ms=[v for r in results for v in r.server_ms],
        client_ms=[v for r in results for v in r.client_ms],
        statuses={},
    )


def ratio_of(results: dict, around: dict, name: str) -> float:
    """Endpoint ``name``'s req/s over the baselines measured around it, pooled."""
    return _ratio(results[name].rate, pooled(*(results[n] for n in around[name])).rate)


def unsteady(before: Result, after: Result) -> bool:
    """Whether the baselines either side of an endpoint disagree by more than UNSTEADY."""
    low, high = sorted((before.rate, after.rate))
    return not high or (high - low) / high > UNSTEADY


def table_lines(results: dict, rows: list[tuple[str, str, int]], around: dict) -> list[str]:
    """The issue's table. ``rows``: (endpoint name in results, target key, outcomes per request,
    0 for reads); ``around``: per endpoint, the names of the baselines measured right before and
    right after it. Latency is the client's round trip; each endpoint's ratios are against those
    two baselines pooled, and a verdict on a ratio is "unsteady" when they disagree (see
    UNSTEADY); a target in outcomes/s does not depend on them."""
    head = (
        f"{'endpoint':<28}{'req/s':>8}{'outcomes/s':>11}{'p50 ms':>8}{'p99 ms':>8}"
        f"{'base req/s':>11}{'base p99':>9}{'ratio req/s':>12}{'ratio p99':>10}  "
        f"{'target':<22}{'met':<9}{'requests':>9}{'errors':>7}"
    )
    lines = [head, "-" * len(head)]
    for name, key, per_request in rows:
        r, neighbours = results[name], [results[n] for n in around[name]]
        base = pooled(*neighbours)
        base_p99 = percentile(base.client_ms, 0.99)
        p99 = percentile(r.client_ms, 0.99)
        outcomes = outcomes_rate(r, per_request) if per_request else None
        rate_ratio, p99_ratio = _ratio(r.rate, base.rate), _ratio(p99, base_p99)
        target = TARGETS.get(key)
        met = (
            "-"
            if target is None
            else ("met" if target.met(rate_ratio, p99_ratio, outcomes) else "not met")
        )
        if target is not None and target.relative and unsteady(*neighbours):
            met = "unsteady"  # the machine changed speed meanwhile: measure again
        if target is not None and r.errors:
            met = "errors"  # a figure with failed requests in it proves nothing
        lines.append(
            f"{name:<28}{r.rate:>8.1f}{'' if outcomes is None else f'{outcomes:,.0f}':>11}"
            f"{percentile(r.client_ms, 0.5):>8.2f}{p99:>8.2f}{base.rate:>11.1f}{base_p99:>9.2f}"
            f"{_down(rate_ratio):>11.3f}x{p99_ratio:>9.2f}x  {target.text if target else '-':<22}"
            f"{met:<9}{r.requests:>9}{r.errors:>7}"
        )
    return lines


def otlp_line(
    otlp: Result, spans_per_request: int, errors: float, bulk: Result, bulk_size: int
) -> str:
    """OTLP ingestion's spans/s beside bulk's outcomes/s measured in the same run, and whether
    it reaches OTLP_SHARE of it."""
    spans, outcomes = outcomes_rate(otlp, spans_per_request), outcomes_rate(bulk, bulk_size)
    ratio = _ratio(spans, outcomes)
    verdict = (
        "errors" if otlp.errors or bulk.errors else ("met" if ratio >= OTLP_SHARE else "not met")
    )
    return (
        f"OTLP ingestion: {spans:,.0f} spans/s (batches of {spans_per_request} spans, "
        f"{errors:.0%} errors) beside bulk {outcomes:,.0f} outcomes/s in the same run: "
        f"{_down(ratio):.3f}x; target ≥{OTLP_SHARE}x: {verdict}"
    )


def memory_line(rss: dict[int, tuple[float, float]]) -> str:
    """The memory row: the largest worker's VmRSS against the limit, and every worker's."""
    if not rss:
        return "worker memory: no gunicorn worker found"
    top = max(now for now, _ in rss.values())
    verdict = "met" if top <= MEMORY_LIMIT_MB else "not met"
    each = ", ".join(
        f"pid {pid} {now:.0f} MB (peak {peak:.0f})" for pid, (now, peak) in sorted(rss.items())
    )
    return (
        f"{'worker RSS after the run':<28}max {top:.0f} MB; target ≤{MEMORY_LIMIT_MB} MB: "
        f"{verdict}  [{each}]"
    )


def server_lines(results: dict, around: dict) -> list[str]:
    """Server time (Server-Timing app;dur, the whole Django request) beside client latency, per
    measured endpoint in order (each endpoint's p99 against its neighbouring baselines', each
    baseline's against the first), and how far the baselines' req/s ranged."""
    first_p99 = percentile(results[BASELINE].server_ms, 0.99)
    head = (
        f"{'endpoint':<44}{'srv p50':>9}{'srv p99':>9}{'cli p50':>9}{'cli p99':>9}"
        f"{'srv p99/base':>13}"
    )
    lines = [head, "-" * len(head)]
    for name, r in results.items():
        p99 = percentile(r.server_ms, 0.99)
        base_p99 = (
            percentile(pooled(*(results[n] for n in around[name])).server_ms, 0.99)
            if name in around
            else first_p99
        )
        lines.append(
            f"{name:<44}{percentile(r.server_ms, 0.5):>9.2f}{p99:>9.2f}"
            f"{percentile(r.client_ms, 0.5):>9.2f}{percentile(r.client_ms, 0.99):>9.2f}"
            f"{_ratio(p99, base_p99):>12.2f}x"
        )
    rates = [r.rate for name, r in results.items() if name.startswith(BASELINE)]
    if len(rates) > 1:
        lines.append(
            f"Baselines: {len(rates)} measurements, req/s {min(rates):.1f}-"
            f"{max(rates):.1f} (the slowest {_ratio(min(rates), max(rates)):.2f}x the "
            f"fastest)"
        )
    for name, r in results.items():
        if r.errors:
            lines.append(f"  {name}: answers by status {r.statuses}")
    return lines


def worker_pids(master: int) -> list[int]:
    """gunicorn's workers: the master's child processes."""
    children = Path(f"/proc/{master}/task/{master}/children")
    if children.exists():
        return [int(pid) for pid in children.read_text().split()]
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The command name in parentheses may hold spaces: the parent pid follows the last ')'.
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


def worker_rss(master: int) -> dict[int, tuple[float, float]]:
    """Per worker pid: (VmRSS, VmHWM) in MB, read from /proc/<pid>/status."""
    memory = {}
    for pid in worker_pids(master):
        try:
            fields = dict(
                line.split(":", 1)
                for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                if ":" in line
            )
        except OSError:
            continue  # the worker exited meanwhile
        kib = lambda key: int(fields[key].split()[0]) if key in fields else 0  # noqa: E731
        memory[pid] = (kib("VmRSS") / 1024, kib("VmHWM") / 1024)
    return memory
