"""The README runs as written: its shell blocks, pasted in order into one terminal after
``make run``, succeed and print what the README shows.

The ``embedded`` fixture runs the real ``make run`` (a fresh var/ folder, as on a first install)
on a spare port. Every ```sh / ```bash / ```shell block of README.md then runs, in order, in one
``bash`` session (``set -euo pipefail``) in the checkout, with the make run's environment, except
the blocks that install, test or serve the service (see ``SETUP``). Two things differ from a
person's terminal, and only these:

- ``HINDSIGHT_URL=http://127.0.0.1:8000``, the one line the README says to change when
  ``make run`` serves elsewhere, names the spare port instead;
- ``curl`` is a shell function that runs the real curl with ``--fail-with-body`` (an HTTP error
  fails the block) and writes each answer's status to standard error, to be checked.

Below a command, comment lines that start with ``# {`` (JSON) or ``# #`` (markdown) show its
output; each is compared with what the command printed (see ``shown_json`` and ``matches``).
"""

import json
import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DEFAULT_URL = "HINDSIGHT_URL=http://127.0.0.1:8000"
# A block with a command that installs, tests or serves the service (make run, make test,
# make bench, make install-dev, gunicorn, celery) is set-up, not part of the API tour.
SETUP = re.compile(r"^(make\s|\S*/(gunicorn|celery)\s)")
ANY = "\u2026any\u2026"  # stands for an elided value (a bare … in the README)


@dataclass
class Command:
    text: str
    line: int  # in README.md
    shown: list[str] = field(default_factory=list)  # the comment lines showing its output


@dataclass
class Block:
    line: int
    commands: list[Command]

    @property
    def setup(self) -> bool:
        return any(SETUP.match(command.text) for command in self.commands)


def shell_blocks(text: str) -> list[Block]:
    """Every ```sh, ```bash and ```shell block, in order, split into its commands."""
    blocks, lines, start = [], text.splitlines(), None
    for number, line in enumerate(lines, 1):
        if start is None and re.fullmatch(r"```(sh|bash|shell)\s*", line):
            start = number
        elif start is not None and line.strip() == "```":
            blocks.append(Block(start, commands_of(lines[start : number - 1], start + 1)))
            start = None
    return blocks


def commands_of(lines: list[str], first: int) -> list[Command]:
    """A command is the lines up to one that ends it (no trailing backslash, no open quote);
    the comment lines right after it show its output when they begin with ``# {`` or ``# #``."""
    commands, pending, after, start = [], [], False, first
    for number, line in enumerate(lines, first):
        if pending:
            pending.append(line)
        elif line.startswith("#"):
            if after and (commands[-1].shown or line.startswith(("# {", "# #"))):
                commands[-1].shown.append(line)
            else:
                after = False
            continue
        elif not line.strip():
            after = False
            continue
        else:
            pending, start = [line], number
        text = "\n".join(pending)
        if text.endswith("\\") or not complete(text):
            continue
        commands.append(Command(text, start))
        pending, after = [], True
    assert not pending, f"README.md line {start}: a command that never ends"
    return commands


def complete(text: str) -> bool:
    try:
        shlex.split(text, comments=True)
    except ValueError:  # an open quote
        return False
    return True


def shown_json(shown: list[str]):
    """The JSON value the README shows, with ``…`` for what it leaves out: a bare ``…`` is any
    value, a list ending in ``…`` may go on, ``"text…"`` is any string starting so. An object
    shows some of the keys (remarks after the value, such as ``(then …)``, are ignored)."""
    text = "".join(line[1:].strip() for line in shown)
    out, stack, in_string, escaped = [], [], False, False
    for char in text[text.index("{") :]:
        if in_string:
            out.append(char)
            escaped = char == "\\" and not escaped
            in_string = escaped or char != '"'
            continue
        if char == "\u2026":
            if stack[-1] == "{" and out[-1] in "{,":
                if out[-1] == ",":
                    out.pop()
                continue  # an elided member: objects are compared by the keys shown
            out.append(json.dumps(ANY))
            continue
        if char == '"':
            in_string = True
        elif char in "{[":
            stack.append(char)
        elif char in "}]":
            stack.pop()
        if char == "," and out[-1] in "{":
            continue  # the comma after an elided first member
        out.append(char)
        if not stack:
            break
    return json.loads("".join(out))


def matches(shown, actual) -> bool:
    if shown == ANY:
        return True
    if isinstance(shown, dict):
        return isinstance(actual, dict) and all(
            key in actual and matches(value, actual[key]) for key, value in shown.items()
        )
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return False
        if shown and shown[-1] == ANY:
            shown = shown[:-1]
            return len(actual) >= len(shown) and all(map(matches, shown, actual))
        return len(actual) == len(shown) and all(map(matches, shown, actual))
    if isinstance(shown, str) and "\u2026" in shown:
        pattern = ".*".join(map(re.escape, shown.split("\u2026")))
        return isinstance(actual, str) and re.fullmatch(pattern, actual, re.S) is not None
    return shown == actual and type(shown) is type(actual)


def shown_headings(shown: list[str]) -> list[str]:
    """The markdown lines the README shows, each cut before its explanation (two spaces)."""
    return [re.split(r"\s{2,}", line[2:].strip())[0] for line in shown]


def test_readme_shell_blocks_run_as_written_after_make_run(embedded, tmp_path):
    base, env, _log = embedded
    tour_run(base, env, tmp_path)


def test_readme_shell_blocks_run_as_written_on_postgresql(
    django_db_reset_sequences, start_gunicorn, tmp_path
):
    """The same tour against gunicorn on the test database (PostgreSQL, Redis), as installed
    fresh: sequences from 1, the known patterns loaded (as ``make run`` loads them)."""
    from django.core.management import call_command

    from tests.conftest import database_url

    call_command("seed_lessons", verbosity=0)
    base = start_gunicorn()
    tour_run(base, {**os.environ, "DATABASE_URL": database_url()}, tmp_path)


def tour_run(base: str, env: dict, tmp_path: Path) -> None:
    """Every tour block, in order, in one bash session against ``base``; each output shown
    compared with what was printed."""
    blocks = shell_blocks(README.read_text())
    tour = [block for block in blocks if not block.setup]
    assert [block.line for block in blocks if block.setup], "the set-up blocks were not found"
    assert len(tour) >= 6, [block.line for block in tour]

    commands = [command for block in tour for command in block.commands]
    assert sum(command.text == DEFAULT_URL for command in commands) == 1
    assert not any(
        "127.0.0.1:8000" in command.text for command in commands if command.text != DEFAULT_URL
    ), "a tour command bypasses HINDSIGHT_URL"

    out = tmp_path / "readme"
    out.mkdir()
    script = [
        "set -euo pipefail",
        "curl() { command curl --fail-with-body -w '%{stderr}HTTP %{http_code}\\n' \"$@\"; }",
    ]
    for number, command in enumerate(commands):
        text = f"HINDSIGHT_URL={base}" if command.text == DEFAULT_URL else command.text
        script.append(f"{{\n{text}\n}} >{out}/{number}.out 2>{out}/{number}.err")
    ran = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if ran.returncode:
        failed = max(int(path.stem) for path in out.glob("*.out"))
        pytest.fail(
            f"README.md line {commands[failed].line} failed ({ran.returncode}):\n"
            f"{commands[failed].text}\n--- output:\n"
            f"{(out / f'{failed}.out').read_text()}\n"
            f"{(out / f'{failed}.err').read_text()}{ran.stderr}"
        )

    checked = 0
    for number, command in enumerate(commands):
        printed = (out / f"{number}.out").read_text()
        statuses = re.findall(r"^HTTP (\d{3})$", (out / f"{number}.err").read_text(), re.M)
        where = f"README.md line {command.line}"
        assert statuses.count("000") == 0, where
        assert all(status in {"200", "201"} for status in statuses), (where, statuses)
        if not command.shown:
            continue
        checked += 1
        if command.shown[0].startswith("# {"):
            shown = shown_json(command.shown)
            assert matches(shown, json.loads(printed)), f"{where} shows {shown}, printed {printed}"
        else:
            lines = iter(printed.splitlines())
            for heading in shown_headings(command.shown):
                assert heading in lines, f"{where} shows {heading!r}, printed {printed}"
    assert checked >= 8


def test_shown_output_allows_only_what_the_readme_elides():
    shown = shown_json(
        [
            '# {"lessons":[{"error_pattern":"a","resolution":"Wait 60s…",…}],',
            '#  "total":6,"id":…}   (then {"updated":true,…})',
        ]
    )
    assert shown == {
        "lessons": [{"error_pattern": "a", "resolution": "Wait 60s…"}],
        "total": 6,
        "id": ANY,
    }
    good = {
        "lessons": [{"id": "x", "error_pattern": "a", "resolution": "Wait 60s, retry"}],
        "total": 6,
        "id": 3,
        "page": 1,
    }
    assert matches(shown, good)
    assert not matches(shown, {**good, "total": 7})
    assert not matches(shown, {**good, "total": "6"})
    assert not matches(shown, {**good, "lessons": []})
    assert not matches(shown, {**good, "lessons": [{"error_pattern": "a", "resolution": "No"}]})
    listed = shown_json(['# {"results":[{"index":0,…},…]}'])
    assert matches(listed, {"results": [{"index": 0, "x": 1}, {"index": 1}]})
    assert not matches(listed, {"results": []})
    assert not matches(shown_json(['# {"a":[1]}']), {"a": [1, 2]})


def test_commands_end_where_the_shell_says_and_carry_their_shown_output():
    block = shell_blocks(
        "```sh\n"
        "# what follows\n"
        "X=$(echo 'a\n"
        "b' | tr a c)\n"
        '# {"x":1,\n'
        '#  "y":2}\n'
        "echo done \\\n"
        "  now   # a remark\n"
        "\n"
        "# the next one\n"
        "make run\n"
        "```\n"
    )[0]
    assert [(c.text, c.shown) for c in block.commands] == [
        ("X=$(echo 'a\nb' | tr a c)", ['# {"x":1,', '#  "y":2}']),
        ("echo done \\\n  now   # a remark", []),
        ("make run", []),
    ]
    assert block.setup
