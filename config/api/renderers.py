"""Markdown answers for endpoints that offer ``?format=markdown`` (prompt-ready text)."""
from rest_framework.renderers import BaseRenderer


class MarkdownRenderer(BaseRenderer):
    """Renders a view's markdown string; errors come out as a short markdown note."""

    media_type = "text/markdown"
    format = "markdown"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, str):
            return data.encode(self.charset)
        if isinstance(data, dict) and "error" in data:
            return f"**Error:** {data['error']}\n".encode(self.charset)
        return str(data).encode(self.charset)
