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
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox"])
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
