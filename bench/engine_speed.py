"""Speed of the pattern engine (failures.patterns), in process, on one core.

Run from the project root:  .venv/bin/python bench/engine_speed.py [--repeat N]

Input: the Content column of the 16 Loghub-2k datasets (32,000 messages), repeated N times.
Two workloads:
  repeated  the messages as they are, so the same message comes back N times (a failure
            stream repeats itself; the engine's message cache is meant for this);
  unique    a counter appended to every message ("... #123456"), so no message repeats and
            the message cache never hits (the templates still repeat: the counter is masked).
For each workload it prints messages/s for:
  baseline split+hash   hash(tuple(m.split())) per message: what a bare loop costs here;
  baseline re.sub       one re.sub of digit runs per message: the cheapest regex pass;
  template_of           the normaliser alone (caches emptied first);
  full path             template_of + fingerprint + PatternGrouper.add (fresh grouper).
The baselines are measured in the same run so the figures can be read relative to this
machine. It prints figures and asserts nothing.
"""
import argparse
import csv
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from failures.patterns import PatternGrouper, fingerprint_of, template_of  # noqa: E402

DATA = ROOT.parent / "shared" / "bench-data" / "loghub-2k"
DIGITS = re.compile(r"\d+")


def load_messages() -> list[str]:
    messages = []
    for path in sorted(DATA.glob("*/*_2k.log_structured_corrected.csv")):
        with path.open(newline="", encoding="utf-8") as f:
            messages.extend(row["Content"] for row in csv.DictReader(f))
    return messages


def rate(fn, messages) -> float:
    start = time.perf_counter()
    fn(messages)
    return len(messages) / (time.perf_counter() - start)


def split_hash(messages):
    for m in messages:
        hash(tuple(m.split()))


def digit_sub(messages):
    for m in messages:
        DIGITS.sub("0", m)


def normalise_only(messages):
    template_of.cache_clear()
    for m in messages:
        template_of(m)


def full_path(messages):
    template_of.cache_clear()
    fingerprint_of.cache_clear()
    grouper = PatternGrouper()
    for m in messages:
        grouper.add(template_of(m))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=8, help="times the 32k messages are used")
    args = parser.parse_args()
    base = load_messages()
    if not base:
        sys.exit(f"no data under {DATA}")
    repeated = base * args.repeat
    unique = [f"{m} #{i}" for i, m in enumerate(repeated)]
    print(__doc__.split("\n\n")[0])
    print(f"{len(base)} distinct messages x {args.repeat} = {len(repeated)} per workload\n")
    print(f"{'workload':<10}{'measure':<22}{'messages/s':>12}")
    for name, messages in (("repeated", repeated), ("unique", unique)):
        for label, fn in (("baseline split+hash", split_hash), ("baseline re.sub", digit_sub),
                          ("template_of", normalise_only), ("full path", full_path)):
            print(f"{name:<10}{label:<22}{rate(fn, messages):>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
