"""The boot briefing: the composer (with the staff pages, the one place that
reads all three apps), its parts and its endpoint."""
