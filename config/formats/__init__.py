"""How staff pages show values: moments in one format everywhere, with the time zone (every
moment is shown in TIME_ZONE, UTC), and long texts shortened at a word. Django reads the formats
of the active language from ``en/formats.py`` here (settings.FORMAT_MODULE_PATH);
``moment_shown`` gives the same text to values formatted in Python."""

from datetime import datetime

from django.utils import formats, timezone


def moment_shown(moment: datetime) -> str:
    """``2026-11-28 14:10 UTC``: as the admin shows a moment."""
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def shortened(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: whole, or cut at its last space within them
    (mid-word only when the first word alone is longer) and ended with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if not text[limit - 1].isspace() and space > limit // 2:  # else the cut ends a word
        cut = cut[:space]
    return cut.rstrip(" ,.;:") + "…"


def counted(count: int, one: str, many: str | None = None) -> str:
    """``1 lesson``, ``3 lessons``: a count with its noun in agreement (``many`` for an
    irregular plural)."""
    return f"{count} {one if count == 1 else many or one + 's'}"
