"""The benchmark table's verdicts: each endpoint against the baselines measured around it, a
verdict withheld when those disagree, and a ratio short of its target never printed as met."""

from bench.loadgen import Result
from bench.suite_report import BASELINE, baseline_after, otlp_line, pooled, table_lines, unsteady


def _result(requests: int, seconds: float, latency_ms: float = 2.0, errors: int = 0) -> Result:
    return Result(
        requests=requests,
        errors=errors,
        wall_s=seconds,
        server_ms=[latency_ms] * 10,
        client_ms=[latency_ms] * requests,
        statuses={},
    )


def _row(endpoint: Result, before: Result, after: Result, key: str = "single") -> list[str]:
    results = {BASELINE: before, "single": endpoint, baseline_after("single"): after}
    around = {"single": (BASELINE, baseline_after("single"))}
    [line] = table_lines(results, [("single", key, 1)], around)[2:]
    return line.split()


def test_pooled_baselines_are_all_their_requests_over_all_their_time():
    both = pooled(_result(1000, 2.0), _result(1000, 3.0))
    assert both.rate == 400.0
    assert len(both.client_ms) == 2000


def test_an_endpoint_is_compared_with_the_baselines_around_it():
    # 500 req/s before it, 420 after: pooled, 2,000 requests over 4.38 s = 456.5 req/s.
    row = _row(_result(1000, 4.0), _result(1000, 2.0), _result(1000, 1000 / 420))
    assert row[row.index("single") + 1] == "250.0"
    assert "456.5" in row
    assert "0.547x" in row  # 250 / 456.5: against both, not the first alone (0.5x)
    assert "met" in row and "not" not in row


def test_baselines_that_disagree_withhold_the_verdict():
    before, after = _result(1000, 4.0), _result(1000, 2.0)  # 250 and 500 req/s
    assert unsteady(before, after)
    assert not unsteady(_result(1000, 2.0), _result(1000, 2.2))
    row = _row(_result(1000, 4.0), before, after)
    assert "unsteady" in row and "met" not in row


def test_a_ratio_just_short_of_its_target_reads_short_and_not_met():
    # 1,000 requests in 4.4448 s against 500 req/s: 0.44996, short of the 0.45 target.
    row = _row(_result(1000, 4.4448), _result(1000, 2.0), _result(1000, 2.0))
    assert "0.449x" in row
    assert row[-3:-2] == ["met"] and row[-4] == "not"


def test_failed_requests_void_the_verdict():
    row = _row(_result(1000, 1.0, errors=3), _result(1000, 2.0), _result(1000, 2.0))
    assert "errors" in row and "met" not in row


def test_a_target_in_outcomes_per_second_ignores_unsteady_baselines():
    # 1,000 outcomes a request, 25 requests in 1 s: 25,000/s whatever the baselines did.
    before, after = _result(1000, 4.0), _result(1000, 2.0)
    results = {BASELINE: before, "bulk": _result(25, 1.0), baseline_after("bulk"): after}
    [line] = table_lines(
        results, [("bulk", "bulk", 1000)], {"bulk": (BASELINE, baseline_after("bulk"))}
    )[2:]
    assert "25,000" in line.split()
    assert "met" in line.split() and "unsteady" not in line and "not" not in line.split()


def test_otlp_spans_per_second_are_set_beside_bulk_outcomes_per_second():
    # 20 exports of 512 spans in 2 s (5,120/s) against 10 bulk requests of 1,000 in 1 s.
    line = otlp_line(_result(20, 2.0), 512, 0.2, _result(10, 1.0), 1000)
    assert "5,120 spans/s" in line and "bulk 10,000 outcomes/s" in line
    assert "0.512x" in line and line.endswith("not met")
    assert otlp_line(_result(40, 2.0), 512, 0.2, _result(10, 1.0), 1000).endswith(": met")
    assert otlp_line(_result(40, 2.0, errors=1), 512, 0.2, _result(10, 1.0), 1000).endswith(
        "errors"
    )
