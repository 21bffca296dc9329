"""A JSON parser that turns every malformed or oversized body into a 400 or 413."""
import json

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from .errors import InvalidInput, PayloadTooLarge
from .jsonlimits import json_problem
from .middleware import body_limit


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


class StrictJSONParser(JSONParser):
    """Reads at most HINDSIGHT_MAX_BODY_BYTES, rejects NaN, deep nesting, NUL and bad Unicode."""

    def parse(self, stream, media_type=None, parser_context=None):
        view = (parser_context or {}).get("view")
        limit = body_limit(view)
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(f"Request body is larger than {limit} bytes.")
        if not raw.strip():
            raise ParseError("Request body is empty; send a JSON object.")
        try:
            text = raw.decode("utf-8")
            data = json.loads(text, parse_constant=_reject_constant)
        except UnicodeDecodeError:
            raise ParseError("Request body is not valid UTF-8.") from None
        except RecursionError:
            raise InvalidInput(
                "JSON is nested too deeply.", {"body": ["JSON is nested too deeply."]}
            ) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error: {exc}") from None
        # A view that answers per item (bulk) checks text per item, so one bad item does not
        # sink the rest; the depth limit holds for every body.
        problem = json_problem(data, max_depth=settings.HINDSIGHT_MAX_JSON_DEPTH,
                               check_text=not getattr(view, "checks_text_per_item", False))
        if problem:
            path, message = problem
            raise InvalidInput.from_fields({path: [message]})
        return data
