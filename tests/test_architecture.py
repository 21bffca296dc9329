"""The import direction of the design holds: the import-linter contracts of pyproject.toml.

No database: each check runs ``lint-imports`` over the source tree in its own process (the
graph is read from the files, so nothing is imported into this one).
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "failures", "lessons", "outcomes", "answers", "alerts")
LINT = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess:
    """Check the contracts of root/pyproject.toml against the packages under root."""
    return subprocess.run(
        [str(LINT), "--no-cache", "--no-logo", "--config", "pyproject.toml"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_contracts_hold():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


# One forbidden import per contract: (module that gains it, the import, the contract's name).
BREACHES = [
    (
        "config/settings.py",
        "import pytest",
        "The service's packages import no test machinery",
    ),
    (
        "failures/patterns/rules.py",
        "from failures.models import Failure",
        "The pattern engine imports nothing of the project's but itself",
    ),
    (
        "failures/analysis/loops.py",
        "import django.db",
        "Pure modules (the engine, scrubbing, the rules and the markdown) import no",
    ),
    (
        "lessons/selectors.py",
        "from failures.analysis.rootcauses import root_causes_detect",
        "lessons and outcomes use failures' engine, pattern lookup, records, releases and models",
    ),
    (
        "failures/store/mining.py",
        "from failures.records.services import failure_record",
        "The pattern store uses nothing of failure records",
    ),
    (
        "failures/store/triage.py",
        "from lessons.models import Lesson",
        "In failures, only the staff pages read lessons and outcomes",
    ),
    ("lessons/models.py", "from outcomes.models import Outcome", "lessons reads no outcomes"),
    (
        "outcomes/models.py",
        "from lessons.models import Lesson",
        "outcomes uses lessons through its selectors and services only",
    ),
    (
        "outcomes/services.py",
        "from answers.failures import failure_answer",
        "answers composes the apps; none of them imports it",
    ),
    (
        "lessons/services.py",
        "from alerts.services import alerts_run",
        "alerts reads the other apps; of them only the dashboard reads alerts",
    ),
    (
        "outcomes/history.py",
        "from failures.records.views import FailuresResolveApi",
        "Nothing imports a views module but URL modules",
    ),
]


@pytest.mark.parametrize("module, line, contract", BREACHES, ids=[b[0] for b in BREACHES])
def test_a_forbidden_import_breaks_its_contract(tmp_path, module, line, contract):
    """The same contracts over a copy of the tree with one forbidden import added fail, and
    name the contract and the import."""
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "static", "migrations"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    target = tmp_path / module
    if not target.exists():
        pytest.fail(f"{module} is gone: pick another module for this contract's breach")
    target.write_text(f"{target.read_text()}\n{line}  # noqa\n")
    result = lint(tmp_path)
    assert result.returncode != 0
    report = " ".join(result.stdout.split())
    assert f"{contract}" in report and "BROKEN" in report, report
    importer = module.removesuffix(".py").replace("/", ".")
    assert importer in report, report
