"""Log filters: a request line a log keeps names its path, never the values of its query."""

import logging
import re

# From the "?" that starts a query string to the next space or quote (the protocol, or the
# line's end): "GET /api/v1/boot?agent=x HTTP/1.1" -> "GET /api/v1/boot HTTP/1.1".
_QUERY = re.compile(r"\?[^\s\"]*")


def path_only(text: str) -> str:
    """``text`` with every query string it holds removed."""
    return _QUERY.sub("", text)


class QueryStringDropped(logging.Filter):
    """Remove query strings from the arguments of a record (django.server's request line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                path_only(arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True
