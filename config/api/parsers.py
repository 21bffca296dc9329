"""A JSON parser that turns every malformed or oversized body into a 400 or 413."""

import json

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from config.errors import InvalidInput

from .errors import PayloadTooLarge
from .jsonlimits import BadNumber, decode_float, decode_int, json_problem
from .middleware import body_limit


class StrictJSONParser(JSONParser):
    """Reads at most HINDSIGHT_MAX_BODY_BYTES; rejects deep nesting, NUL, bad Unicode and numbers
    no column holds (NaN, Infinity, 1e400), naming where they are."""

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
            data = json.loads(
                text, parse_constant=BadNumber, parse_float=decode_float, parse_int=decode_int
            )
        except UnicodeDecodeError:
            raise ParseError("Request body is not valid UTF-8.") from None
        except RecursionError:
            raise InvalidInput(
                "JSON is nested too deeply.", {"body": ["JSON is nested too deeply."]}
            ) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error: {exc}") from None
        if getattr(view, "checks_json_per_item", False):
            # A view that answers per item (bulk) checks each item's text, numbers and depth
            # itself, so one bad item does not sink the rest; json.loads bounds the nesting.
            return data
        problem = json_problem(data, max_depth=settings.HINDSIGHT_MAX_JSON_DEPTH)
        if problem:
            path, message = problem
            raise InvalidInput.from_fields({path: [message]})
        return data
