"""The releases as curators see them: the pattern page's releases and models, and the
dashboard's releases panel, after a simulated rollout (tests/outcomes/test_releases.py)."""

import pytest
from django.utils import timezone

from failures.models import VersionPattern
from outcomes.releases.services import versions_judge
from tests.browser.test_curator_pages import log_in, seed
from tests.outcomes.test_releases import A_TASKS, BROUGHT, COMMON, Fleet


@pytest.fixture
def rolled_out(live_server, browser_page):
    seed(timezone.now())  # the curator, and a fleet's other faults
    fleet = Fleet(1, "release")
    fleet.run("1.4.1", A_TASKS, [COMMON])
    fleet.run("1.4.2", 300, [COMMON, BROUGHT])
    versions_judge()
    log_in(browser_page, live_server.url)
    return VersionPattern.objects.get(verdict="new").pattern


def test_the_pattern_page_shows_the_release_that_brought_it(
    live_server, browser_page, rolled_out, visit
):
    url = f"{live_server.url}/admin/failures/failurepattern/{rolled_out.pk}/change/"
    page = visit(browser_page, url, "pattern-page-releases")
    releases = page.locator("#pattern-releases").inner_text()
    assert "1.4.2" in releases
    assert "new here: none in 1.4.1 over" in releases
    assert "none recorded" in page.locator("#pattern-models").inner_text()


def test_the_dashboard_shows_each_releases_health(
    live_server, browser_page, rolled_out, visit, screenshot
):
    page = visit(browser_page, f"{live_server.url}/dashboard/", "dashboard-releases")
    panel = page.locator("#releases")
    latest = panel.locator("tr[data-release='1.4.2']").inner_text()
    assert "1.4.1" in latest and "KeyError: 'region'" in latest
    assert "first of its line" in panel.locator("tr[data-release='1.4.1']").inner_text()
    panel.scroll_into_view_if_needed()
    screenshot(page, "dashboard-releases-panel")
