"""The boot briefing: the composer, its parts (fleet, hints, markdown) and its endpoint."""
