"""Agent text in the dashboard's charts is drawn as text: plotly reads labels as a small HTML
subset (links, bold, line breaks), so a name written as markup must show its characters, never
become a link or a style."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from failures.models import FailurePattern
from failures.records.services import failures_record_many
from outcomes.models import Outcome
from tests.browser.conftest import staff_log_in

PASSWORD = "label-pages-3c9d"
# Names an agent chose: the link, one short enough to be drawn whole (the rate charts
# cut a name at 28 characters), bold, and a line break.
LINK = '<a href="https://evil.example">x</a>'
SHORT_LINK = '<a href="//e.example">x</a>'
AGENTS = [LINK, SHORT_LINK, "<b>bold</b> & co"]
TASK_TYPE = "<br>deploy"
# An error whose template keeps markup (the engine makes the URL and "/a" a <*>), short enough
# for the legend to show it whole.
ERROR = '<a href="https://evil.example"><b>retry</a> failed after 30 tries'
CHARTS = ["chart-failures", "chart-success-type", "chart-success-agent"]


def seed(now) -> None:
    Outcome.objects.bulk_create(
        [
            Outcome(
                task_id=f"t-{i}-{n}",
                agent=agent,
                task_type=TASK_TYPE,
                outcome="success" if n % 2 else "failure",
                occurred_at=now - timedelta(hours=n),
            )
            for i, agent in enumerate(AGENTS)
            for n in range(4)
        ]
    )
    failures_record_many(
        entries=[
            {
                "agent": SHORT_LINK,
                "task": f"sync-{n}",
                "error": ERROR,
                "error_type": "<i>type</i>",
                "occurred_at": now - timedelta(days=n, hours=1),
            }
            for n in range(5)
        ]
    )
    get_user_model().objects.create_superuser("labels", "labels@example.com", PASSWORD)


def chart_texts(page, element: str, selector: str) -> list[str]:
    return page.locator(f"#{element} {selector}").all_text_contents()


def test_agent_text_in_chart_labels_is_text(live_server, browser_page, screenshot):
    seed(timezone.now())
    template = FailurePattern.objects.get().template
    assert template.startswith("<a href=<*>><b>retry") and len(template) <= 48
    page = browser_page
    staff_log_in(page, live_server.url, "labels", PASSWORD, "/dashboard/")
    for chart in CHARTS:
        page.wait_for_selector(f"#{chart}[data-drawn='true']")

    # Tick labels and legend names: the characters the agent sent, cut where the chart cuts.
    agents = chart_texts(page, "chart-success-agent", ".ytick text")
    assert SHORT_LINK in agents and "<b>bold</b> & co" in agents
    assert LINK[:27] + "\u2026" in agents
    assert chart_texts(page, "chart-success-type", ".ytick text") == [TASK_TYPE]
    assert template in chart_texts(page, "chart-failures", ".legendtext")

    # Nothing became markup: no link, no bold or italic, no line split, in any chart's SVG.
    for chart in CHARTS:
        svg = page.locator(f"#{chart} svg")
        assert svg.locator("a").count() == 0, chart
        assert svg.locator("tspan[style*='font-weight'], tspan[style*='font-style']").count() == 0
        assert svg.locator("tspan.line").count() == 0, chart  # plotly's <br>: one tspan a line

    # Hover text, drawn when the pointer is on a bar: the whole template, as text, no link.
    page.evaluate("() => Plotly.Fx.hover('chart-failures', [{curveNumber: 0, pointNumber: 29}])")
    assert template in "".join(chart_texts(page, "chart-failures", ".hoverlayer text"))
    assert page.locator("#chart-failures svg a").count() == 0
    page.evaluate(
        "() => Plotly.Fx.hover('chart-success-agent', [{curveNumber: 0, pointNumber: 2}])"
    )
    assert f"{SHORT_LINK}: 50% (2 / 4)" in chart_texts(
        page, "chart-success-agent", ".hoverlayer text"
    )
    assert page.locator("#chart-success-agent svg a").count() == 0
    screenshot(page, "dashboard-agent-markup")
