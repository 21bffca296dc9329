"""The benchmark suite's table: each endpoint beside the baseline, its target and whether it is met;
and the resident memory of gunicorn's workers."""
import math
from dataclasses import dataclass
from pathlib import Path

from bench.loadgen import Result, percentile

BASELINE, BASELINE_AGAIN = "baseline", "baseline (again)"
MEMORY_LIMIT_MB = 150  # one web worker's resident memory after the run
BULK_FLOOR = 20_000  # outcomes/s through POST /outcomes/bulk


@dataclass(frozen=True)
class Target:
    """What an endpoint must reach: a share of the baseline's req/s, a multiple of its p99, or a
    number of outcomes/s; None where the issue sets none."""
    text: str
    min_rate_ratio: float | None = None
    max_p99_ratio: float | None = None
    min_outcomes: float | None = None

    def met(self, rate_ratio: float, p99_ratio: float, outcomes: float | None) -> bool:
        checks = [(self.min_rate_ratio, lambda v: rate_ratio >= v),
                  (self.max_p99_ratio, lambda v: p99_ratio <= v),
                  (self.min_outcomes, lambda v: outcomes is not None and outcomes >= v)]
        return all(test(limit) for limit, test in checks if limit is not None)


TARGETS = {
    "check": Target("≥0.8x req/s, p99 ≤2x", min_rate_ratio=0.8, max_p99_ratio=2.0),
    "boot": Target("≥0.5x req/s", min_rate_ratio=0.5),
    "single": Target("≥0.5x req/s", min_rate_ratio=0.5),
    "bulk": Target(f"≥{BULK_FLOOR:,} outcomes/s", min_outcomes=BULK_FLOOR),
}


def outcomes_rate(result: Result, per_request: int) -> float:
    """Outcomes of answered (2xx) requests per second of the endpoint's wall time."""
    return (result.requests - result.errors) * per_request / result.wall_s if result.wall_s else 0.0


def _ratio(value: float, base: float) -> float:
    return value / base if base and not math.isnan(base) else math.nan


def table_lines(results: dict, rows: list[tuple[str, str, int]]) -> list[str]:
    """The issue's table. ``rows``: (endpoint name in results, target key, outcomes per request,
    0 for reads). Latency is the client's round trip; ratios are against the first baseline."""
    base = results[BASELINE]
    base_p99 = percentile(base.client_ms, 0.99)
    head = (f"{'endpoint':<28}{'req/s':>8}{'outcomes/s':>11}{'p50 ms':>8}{'p99 ms':>8}"
            f"{'base req/s':>11}{'base p99':>9}{'ratio req/s':>12}{'ratio p99':>10}  "
            f"{'target':<22}{'met':<9}{'requests':>9}{'errors':>7}")
    lines = [head, "-" * len(head)]
    for name, key, per_request in rows:
        r = results[name]
        p99 = percentile(r.client_ms, 0.99)
        outcomes = outcomes_rate(r, per_request) if per_request else None
        rate_ratio, p99_ratio = _ratio(r.rate, base.rate), _ratio(p99, base_p99)
        target = TARGETS.get(key)
        met = "-" if target is None else (
            "met" if target.met(rate_ratio, p99_ratio, outcomes) else "not met")
        if target is not None and r.errors:
            met = "errors"  # a figure with failed requests in it proves nothing
        lines.append(
            f"{name:<28}{r.rate:>8.1f}{'' if outcomes is None else f'{outcomes:,.0f}':>11}"
            f"{percentile(r.client_ms, 0.5):>8.2f}{p99:>8.2f}{base.rate:>11.1f}{base_p99:>9.2f}"
            f"{rate_ratio:>11.2f}x{p99_ratio:>9.2f}x  {target.text if target else '-':<22}"
            f"{met:<9}{r.requests:>9}{r.errors:>7}")
    return lines


def memory_line(rss: dict[int, tuple[float, float]]) -> str:
    """The memory row: the largest worker's VmRSS against the limit, and every worker's."""
    if not rss:
        return "worker memory: no gunicorn worker found"
    top = max(now for now, _ in rss.values())
    verdict = "met" if top <= MEMORY_LIMIT_MB else "not met"
    each = ", ".join(f"pid {pid} {now:.0f} MB (peak {peak:.0f})"
                     for pid, (now, peak) in sorted(rss.items()))
    return (f"{'worker RSS after the run':<28}max {top:.0f} MB; target ≤{MEMORY_LIMIT_MB} MB: "
            f"{verdict}  [{each}]")


def server_lines(results: dict) -> list[str]:
    """Server time (Server-Timing app;dur, the whole Django request) beside client latency, per
    measured endpoint in order, and the baseline's drift from first to last."""
    base = results[BASELINE]
    base_p99 = percentile(base.server_ms, 0.99)
    head = (f"{'endpoint':<28}{'srv p50':>9}{'srv p99':>9}{'cli p50':>9}{'cli p99':>9}"
            f"{'srv p99/base':>13}")
    lines = [head, "-" * len(head)]
    for name, r in results.items():
        p99 = percentile(r.server_ms, 0.99)
        lines.append(f"{name:<28}{percentile(r.server_ms, 0.5):>9.2f}{p99:>9.2f}"
                     f"{percentile(r.client_ms, 0.5):>9.2f}{percentile(r.client_ms, 0.99):>9.2f}"
                     f"{_ratio(p99, base_p99):>12.2f}x")
    again = results.get(BASELINE_AGAIN)
    if again:
        p99s = [percentile(r.client_ms, 0.99) for r in (again, base)]
        lines.append(f"Baseline drift, last against first: req/s "
                     f"{_ratio(again.rate, base.rate):.2f}x, client p99 {_ratio(*p99s):.2f}x")
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
            fields = dict(line.split(":", 1) for line in
                          Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
        except OSError:
            continue  # the worker exited meanwhile
        kib = lambda key: int(fields[key].split()[0]) if key in fields else 0  # noqa: E731
        memory[pid] = (kib("VmRSS") / 1024, kib("VmHWM") / 1024)
    return memory
