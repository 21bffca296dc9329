"""Browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium, which `make test`
installs) against a live server on the test database.

Playwright's own browser download is not used. Screenshots are saved under var/screenshots/
(git-ignored) and their paths are printed at the end of the run.
"""

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
_saved: list[Path] = []


@pytest.fixture
def browser_page(monkeypatch, transactional_db):
    """A fresh headless Chromium page (1400x1000), closed after the test."""
    if not os.access(CHROMIUM, os.X_OK):
        message = f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread, which Django takes for an async
    # context; the test's own ORM calls are plain synchronous code, so allow them.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        # --no-sandbox: Chromium refuses to start its sandbox as root (CI runs as root).
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(20_000)
        yield page
        browser.close()


@pytest.fixture
def screenshot():
    """Save a full-page screenshot as var/screenshots/NAME.png and return its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        _saved.append(path)
        return path

    return take


def pytest_terminal_summary(terminalreporter):
    if _saved:
        terminalreporter.section("browser screenshots")
        for path in _saved:
            terminalreporter.write_line(str(path))


# A link is "wrapped one letter per line" when its box is narrower than this many of its font's
# em but spans at least WRAPPED_LINES lines: a word of four or more letters cannot fit that box
# on fewer lines.
WRAPPED_EM = 2.0
WRAPPED_LINES = 3
_BROKEN_LINKS = """(limits) => Array.from(document.querySelectorAll("a")).filter((a) => {
    const text = a.textContent.trim();
    const box = a.getBoundingClientRect();
    if (text.length < 4 || box.width === 0 || box.height === 0) { return false; }
    const style = getComputedStyle(a);
    const size = parseFloat(style.fontSize);
    const line = parseFloat(style.lineHeight) || size * 1.2;
    return box.width < limits.em * size && box.height >= limits.lines * line;
}).map((a) => a.textContent.trim())"""


def columns_cut(page) -> list[str]:
    """The cells of a change list cut off at the list's right edge (hidden columns)."""
    return page.evaluate("""() => {
        const frame = document.querySelector("#changelist .results");
        if (!frame) { return []; }
        const right = frame.getBoundingClientRect().right + 1;
        return Array.from(frame.querySelectorAll("#result_list th, #result_list td"))
            .filter((cell) => cell.getBoundingClientRect().right > right)
            .map((cell) => cell.className || cell.textContent.trim());
    }""")


def staff_log_in(page, base: str, username: str, password: str, next_path: str) -> None:
    """Log in through the admin's login form and wait for ``next_path``."""
    page.goto(f"{base}/admin/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_url(f"**{next_path}")


def page_faults(page) -> list[str]:
    """What is visibly broken on the page: a Python object's repr, a traceback, a link wrapped
    one letter per line."""
    text = page.locator("body").inner_text()
    faults = [
        f"shows {needle!r}"
        for needle in ("object at 0x", "Traceback (most recent call")
        if needle in text
    ]
    faults += [
        f"link {name!r} wrapped one letter per line"
        for name in page.evaluate(_BROKEN_LINKS, {"em": WRAPPED_EM, "lines": WRAPPED_LINES})
    ]
    return faults


@pytest.fixture
def visit(screenshot):
    """Open a URL, fail on any fault page_faults finds, and save its screenshot as NAME."""

    def go(page, url: str, name: str):
        response = page.goto(url)
        assert response is not None and response.status < 400, (
            f"{url}: {response and response.status}"
        )
        page.wait_for_load_state("load")
        faults = page_faults(page)
        screenshot(page, name)
        assert not faults, f"{url}: {faults}"
        return page

    return go
