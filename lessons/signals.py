"""What lessons tells the pages built on it, without importing them.

``lessons_curated`` is sent after a curator changed lessons in the admin (approved, rejected,
merged, edited or linked them): the dashboard drops its cached composition
(failures.staff.dashboard), so a person sees their own change at once.
"""

from django.dispatch import Signal

lessons_curated = Signal()
