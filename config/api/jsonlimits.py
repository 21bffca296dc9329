"""Checks on decoded JSON that the database would otherwise reject with a 500.

PostgreSQL refuses NUL characters in text and jsonb, UTF-8 cannot encode lone surrogates, and
deeply nested documents are a cheap way to exhaust a server. Pure functions, no Django.
"""
MAX_DEPTH = 20


def json_problem(value, *, max_depth: int = MAX_DEPTH,
                 check_text: bool = True) -> tuple[str, str] | None:
    """Return ``(path, message)`` for the first unstorable part of ``value``, or None.

    Walks iteratively, so a hostile document cannot exhaust the recursion limit here.
    ``check_text=False`` checks the depth only (for callers that check text per item).
    """
    stack = [(value, "", 1)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > max_depth:
                return path or "body", f"JSON is nested deeper than {max_depth} levels."
            if isinstance(item, dict):
                for key, child in item.items():
                    problem = text_problem(key) if check_text else None
                    child_path = f"{path}.{key}" if path else str(key)
                    if problem:
                        return path or "body", f"A key {problem}"
                    stack.append((child, child_path, depth + 1))
            else:
                for index, child in enumerate(item):
                    stack.append((child, f"{path}.{index}" if path else str(index), depth + 1))
        elif check_text and isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return path or "body", f"The text {problem}"
    return None


def text_problem(text: str) -> str | None:
    """Say why ``text`` cannot be stored, or return None when it can."""
    if "\x00" in text:
        return "contains a NUL character."
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid Unicode (unpaired surrogate)."
    return None
