"""The first pages a newcomer opens: the home page at ``/`` (also the admin's "View site"
link) and the admin, named Hindsight."""

from django.contrib.auth import get_user_model

from tests.browser.conftest import staff_log_in

PASSWORD = "first-pages-3c9a"


def test_the_home_page_says_what_the_service_is_and_links_onward(live_server, browser_page, visit):
    page = visit(browser_page, f"{live_server.url}/", "home")
    assert page.title() == "Hindsight"
    assert page.locator("#site-name").inner_text() == "Hindsight"
    assert "failure memory of a fleet of AI agents" in page.locator(".home").inner_text()
    assert page.locator("#health").inner_text() == (
        "Service: running · Database: reachable · /api/v1/health"
    )
    links = {
        link.inner_text(): link.get_attribute("href")
        for link in page.locator(".home ul.links a").all()
    }
    assert links == {
        "Admin": "/admin/",
        "Dashboard": "/dashboard/",
        "API docs": "/api/v1/docs",
        "OpenAPI schema": "/api/v1/schema",
    }
    assert f"HINDSIGHT_URL={live_server.url}\n" in page.locator(".home pre").inner_text()
    for name, href in links.items():  # each answers (the admin and dashboard with a log-in)
        assert page.request.get(f"{live_server.url}{href}").status == 200, name


def test_the_admin_is_named_hindsight_and_view_site_leads_home(live_server, browser_page, visit):
    get_user_model().objects.create_superuser("ada", password=PASSWORD)
    staff_log_in(browser_page, live_server.url, "ada", PASSWORD, "/admin/")
    page = visit(browser_page, f"{live_server.url}/admin/", "admin-named")
    assert page.locator("#site-name").inner_text() == "Hindsight"
    assert page.title() == "Curation | Hindsight admin"
    assert page.locator("#content h1").inner_text() == "Curation"
    assert "Django" not in page.locator("body").inner_text()
    page.click("#user-tools a:has-text('View site')")
    page.wait_for_load_state("load")
    assert page.url == f"{live_server.url}/"
    assert page.locator("#health").count() == 1
