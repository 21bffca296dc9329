"""Per-item CPU cost of secret scrubbing on the bulk write path, this scrubber beside an older
one, measured in the same run.

Run from the project root:
    .venv/bin/python bench/scrub_cost.py [--old-commit e4bc68a] [--items N] [--runs R] [--checks]

The older scrubber is read from git into a module of its own (``config/scrubbing/`` as a
package, or ``failures/scrubbing.py`` before it moved there), so both run in this process on
the same items.  Items are shaped as the bulk
endpoint receives them (bench/outcomes_bench.py's Writer, without a database): ~20% failures
whose context holds an error type, a message of the bench's message shapes
(bench/messages.py) and file paths, the rest successes with an approach and changed files.
Per item, what the bulk write scrubs: ``scrub_value`` of the context and of the result, and
``scrub_text`` of a failure's message (the failure record).  Two workloads:
  fleet         the items as they are (few triggers, no secrets);
  with secrets  the same items, every failure message carrying one credential of a common
                shape (key=value, a provider token, a bearer header, a URL password).
It prints microseconds per item, the median of R runs, for each scrubber and the ratio.
``--checks`` also prints the CPU of the bulk path's whole per-item checks and scrubbing
(bench/floor.py's ``checking_cpu``: outcomes.validation and the Outcome each becomes) for the old
commit's tree and the working tree, each in a process of its own (Django set up; DATABASE_URL
and REDIS_URL as for the tests, no query is made), runs alternated.
It asserts nothing.
"""

import argparse
import importlib.util
import os
import random
import statistics
import string
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.messages import all_makers  # noqa: E402
from config import scrubbing as current  # noqa: E402

# Shares as outcomes_bench.Writer draws them: ~20% failed outcomes, 70% with files.
FAILURE_SHARE, FILES_SHARE = 0.2, 0.7
ALNUM = string.ascii_letters + string.digits


def old_scrubber(commit: str):
    """The scrubbing code as it was at ``commit``, loaded under a name of its own."""
    folder = Path(tempfile.mkdtemp())
    package = (
        subprocess.run(
            ["git", "cat-file", "-e", f"{commit}:config/scrubbing/__init__.py"],
            cwd=ROOT,
            capture_output=True,
        ).returncode
        == 0
    )
    if package:
        archive = subprocess.run(
            ["git", "archive", commit, "config/scrubbing"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        path = folder / "config" / "scrubbing" / "__init__.py"
    else:
        source = subprocess.run(
            ["git", "show", f"{commit}:failures/scrubbing.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        path = folder / "scrubbing_old.py"
        path.write_text(source)
    spec = importlib.util.spec_from_file_location(
        "scrubbing_old", path, submodule_search_locations=[str(path.parent)] if package else None
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and relative imports look it up there
    spec.loader.exec_module(module)
    return module


def tree_of(commit: str) -> Path:
    """The project's files at ``commit``, in a temporary folder."""
    folder = Path(tempfile.mkdtemp())
    archive = subprocess.run(
        ["git", "archive", commit], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def checks_measure(root: str, count: int) -> None:
    """In a process of its own: print the CPU microseconds per outcome of the bulk path's
    checks and scrubbing (bench/floor.py's checking_cpu) with the code under ``root``."""
    sys.path.insert(0, root)
    for name in [name for name in sys.modules if name.split(".")[0] in ("config", "bench")]:
        del sys.modules[name]
    os.chdir(root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from bench.floor import checking_cpu

    raws = []
    for label, with_secrets in (("fleet", False), ("with secrets", True)):
        items = items_make(count, random.Random(7), with_secrets)
        raws = [
            {
                "task_id": f"t-{n}",
                "agent": f"agent-{n % 50}",
                "task_type": "deploy",
                "outcome": "failure" if message else "success",
                "context": context,
                "result": result,
                "duration_ms": 1200,
                "event_id": str(uuid.UUID(int=random.Random(n).getrandbits(128), version=4)),
            }
            for n, (context, result, message) in enumerate(items)
        ]
        batches = [raws[i : i + 1000] for i in range(0, len(raws), 1000)]
        print(f"{label}\t{checking_cpu(batches) * 1e6:.3f}")


def checks_compare(commit: str, count: int, runs: int) -> None:
    """The per-item checks of ``commit``'s tree beside the working tree's, runs alternated."""
    old_root = tree_of(commit)
    figures: dict[tuple[str, str], list[float]] = {}
    for _ in range(runs):
        for side, root in (("old", old_root), ("new", ROOT)):
            out = subprocess.run(
                [sys.executable, __file__, "--measure-checks", str(root), "--items", str(count)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            for line in out.splitlines():
                label, value = line.split("\t")
                figures.setdefault((label, side), []).append(float(value))
    for label in ("fleet", "with secrets"):
        old_us, new_us = (statistics.median(figures[(label, side)]) for side in ("old", "new"))
        print(
            f"checks {label:13} old {old_us:6.2f} us/item   new {new_us:6.2f} us/item   "
            f"ratio {new_us / old_us:4.2f}   ({count} items, median of {runs})"
        )


def credentials(rng: random.Random) -> list[str]:
    """Credentials of common shapes, fake (random characters of the right alphabet)."""

    def pick(alphabet: str, size: int) -> str:
        return "".join(rng.choices(alphabet, k=size))

    return [
        f"password={pick(ALNUM, 14)}",
        f"with key sk-proj-{pick(ALNUM, 48)}",
        f"Authorization: Bearer {pick(ALNUM, 40)}",
        f"via postgres://app:{pick(ALNUM, 12)}@db:5432/x",
        f"token ghp_{pick(ALNUM, 36)}",
        f"AKIA{pick(string.ascii_uppercase + string.digits, 16)}",
    ]


def items_make(count: int, rng: random.Random, with_secrets: bool) -> list[tuple]:
    """(context, result, message or None) per item."""
    makers = all_makers()
    paths = [f"src/{rng.choice(string.ascii_lowercase)}{n}/module_{n}.py" for n in range(500)]
    secrets = credentials(rng)
    items = []
    for n in range(count):
        files = rng.sample(paths, rng.randint(1, 3)) if rng.random() < FILES_SHARE else []
        if rng.random() < FAILURE_SHARE:
            maker = rng.choice(makers)
            message = maker.make(rng)
            if with_secrets:
                message = f"{message} ({secrets[n % len(secrets)]})"
            context = {"error_type": maker.error_type, "error_message": message}
            if files:
                context.update(
                    {"file_path": files[0], **({"files": files} if len(files) > 1 else {})}
                )
            items.append((context, {"approach": "Retried the call once"}, message))
        else:
            context = {"file_path": files[0]} if files else {}
            items.append(
                (context, {"approach": "Fetched in pages of 100", "files_changed": files}, None)
            )
    return items


def per_item(module, items: list[tuple]) -> float:
    """Microseconds of CPU per item that ``module`` takes to scrub what a bulk write stores."""
    scrub_value, scrub_text = module.scrub_value, module.scrub_text
    started = time.process_time()
    for context, result, message in items:
        scrub_value(context)
        scrub_value(result)
        if message is not None:
            scrub_text(message)
    return (time.process_time() - started) / len(items) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old-commit", default="e4bc68a")
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--checks",
        action="store_true",
        help="also the bulk path's whole per-item checks, old tree beside new",
    )
    parser.add_argument("--measure-checks", metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_checks:
        checks_measure(args.measure_checks, args.items)
        return
    old = old_scrubber(args.old_commit)
    print(f"old: {args.old_commit}'s scrubber   new: the working tree")
    for label, with_secrets in (("fleet", False), ("with secrets", True)):
        items = items_make(args.items, random.Random(7), with_secrets)
        figures = {"old": [], "new": []}
        for _ in range(args.runs):  # interleaved, so drifts of the machine hit both alike
            figures["old"].append(per_item(old, items))
            figures["new"].append(per_item(current, items))
        old_us, new_us = (statistics.median(figures[k]) for k in ("old", "new"))
        print(
            f"{label:13} old {old_us:6.2f} us/item   new {new_us:6.2f} us/item   "
            f"ratio {new_us / old_us:4.2f}   ({args.items} items, median of {args.runs})"
        )
    if args.checks:
        checks_compare(args.old_commit, args.items, args.runs)


if __name__ == "__main__":
    main()
