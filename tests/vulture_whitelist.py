"""Names the dead-code finder (vulture, run by `make lint`) takes for unused but that a caller
dictates: parameters of methods and hooks that a framework calls with them, by position or by
name, and an import that only a type annotation in quotes reads. Each is named with where it is
and who passes it."""

# ruff: noqa: B018, F821
# Context managers: Python passes the exception's type, value and traceback to __exit__
# (hindsight_client: aio.py, client.py and guard.py).
exc_info
exc_type
traceback
# Django passes a middleware's process_view its view's arguments (config/api/middleware.py).
view_args
view_kwargs
# DRF passes a renderer the media type and context it chose (config/api/renderers.py).
accepted_media_type
renderer_context
# drf-spectacular calls its hooks by keyword (config/api/schema.py).
public
auto_schema
# signal.signal passes a handler the signal and the frame (config/embedded.py).
signum
frame
# Django's staticfiles passes a finder's list() the patterns to skip
# (failures/staff/dashboard_static.py).
ignore_patterns
# Read by a quoted annotation under TYPE_CHECKING (lessons/selectors.py).
WithAnnotations
