"""Speed of the pattern engine (failures.patterns), in process, on one core.

Run from the project root:  .venv/bin/python bench/engine_speed.py [--repeat N] [--runs R]

Input: the Content column of the 16 Loghub-2k datasets (32,000 messages), used N times.
Two workloads:
  repeated  the messages as they are, so the same message comes back N times (a failure
            stream repeats itself; the engine's message cache is meant for this);
  unique    no message and no value repeats across copies: in copy k of the messages, every
            token holding a digit has its digits and its hex letters (a-f) permuted by a
            permutation drawn for k (copy 0 is the data as is), and a counter is appended
            ("... #123456"). The engine caches messages, words and the digit shapes of values
            (``blk_-<19 digits>``); here no message repeats, a value comes back only as often
            as in the data itself, and hex ids (``9f4ef63``) come back with new shapes. Words
            without digits repeat, as they do in any stream.
For each workload it prints messages/s, the median of R runs, for:
  baseline split+hash   hash(tuple(m.split())) per message: what a bare loop costs here;
  baseline re.sub       one re.sub of digit runs per message: the cheapest regex pass;
  template_of           the normaliser alone (all caches emptied first);
  full path             template_of + fingerprint + PatternGrouper.add (fresh grouper).
The baselines are measured in the same run so the figures can be read relative to this
machine. It prints figures and asserts nothing.
"""

import argparse
import csv
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from failures.patterns import PatternGrouper, fingerprint_of, template_of  # noqa: E402
from failures.patterns.normalise import clear_caches  # noqa: E402

DATA = ROOT.parent / "shared" / "bench-data" / "loghub-2k"
DIGITS = re.compile(r"\d+")
# A token (blank to blank) holding an ASCII digit: the values a copy must not repeat.
VALUE_TOKEN = re.compile(r"\S*[0-9]\S*")
HEX_LETTERS = "abcdef"


def load_messages() -> list[str]:
    messages = []
    for path in sorted(DATA.glob("*/*_2k.log_structured_corrected.csv")):
        with path.open(newline="", encoding="utf-8") as f:
            messages.extend(row["Content"] for row in csv.DictReader(f))
    return messages


def fresh_values(copy: int):
    """A translation table permuting digits and hex letters for copy ``copy`` (0: identity)."""
    rng = random.Random(copy)  # seeded: the same workload on every run and machine
    digits = "0123456789"
    new_digits = "".join(rng.sample(digits, len(digits))) if copy else digits
    letters = "".join(rng.sample(HEX_LETTERS, len(HEX_LETTERS))) if copy else HEX_LETTERS
    return str.maketrans(
        digits + HEX_LETTERS + HEX_LETTERS.upper(), new_digits + letters + letters.upper()
    )


def unique_workload(base: list[str], copies: int) -> list[str]:
    out = []
    for copy in range(copies):
        table = fresh_values(copy)

        def mutate(token, table=table):
            return token.group().translate(table)

        out.extend(
            f"{VALUE_TOKEN.sub(mutate, m)} #{copy * len(base) + i}" for i, m in enumerate(base)
        )
    return out


def split_hash(messages):
    for m in messages:
        hash(tuple(m.split()))


def digit_sub(messages):
    for m in messages:
        DIGITS.sub("0", m)


def normalise_only(messages):
    clear_caches()
    for m in messages:
        template_of(m)


def full_path(messages):
    clear_caches()
    fingerprint_of.cache_clear()
    grouper = PatternGrouper()
    for m in messages:
        grouper.add(template_of(m))


def median_rate(fn, messages, runs: int) -> float:
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(messages)
        rates.append(len(messages) / (time.perf_counter() - start))
    return statistics.median(rates)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=4, help="copies of the 32k messages")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median printed)")
    args = parser.parse_args()
    base = load_messages()
    if not base:
        sys.exit(f"no data under {DATA}")
    repeated = base * args.repeat
    unique = unique_workload(base, args.repeat)
    print(__doc__.split("\n\n")[0])
    print(
        f"{len(base)} messages x {args.repeat} = {len(repeated)} per workload "
        f"({len(set(unique))} distinct in 'unique'); median of {args.runs} runs\n"
    )
    print(f"{'workload':<10}{'measure':<22}{'messages/s':>12}")
    for name, messages in (("repeated", repeated), ("unique", unique)):
        for label, fn in (
            ("baseline split+hash", split_hash),
            ("baseline re.sub", digit_sub),
            ("template_of", normalise_only),
            ("full path", full_path),
        ):
            rate = median_rate(fn, messages, args.runs)
            print(f"{name:<10}{label:<22}{rate:>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
