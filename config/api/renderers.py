"""Markdown answers for endpoints that offer ``?format=markdown`` (prompt-ready text)."""

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer

from config.errors import InvalidInput


class MarkdownRenderer(BaseRenderer):
    """Renders a view's markdown string; errors come out as a short markdown note."""

    media_type = "text/markdown"
    format = "markdown"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            # An empty body would be sent without its Content-Type (DRF drops the header of an
            # empty answer), so empty markdown is a single newline.
            return (data or "\n").encode(self.charset)
        if isinstance(data, dict) and "error" in data:
            return f"**Error:** {data['error']}\n".encode(self.charset)
        return str(data).encode(self.charset)


class FormatNegotiation(DefaultContentNegotiation):
    """An unknown ``?format=`` is a 400 naming the parameter, not DRF's bare 404."""

    def filter_renderers(self, renderers, format):
        found = [renderer for renderer in renderers if renderer.format == format]
        if not found:
            known = ", ".join(renderer.format for renderer in renderers)
            raise InvalidInput.from_fields({"format": [f"Expected one of: {known}."]})
        return found
