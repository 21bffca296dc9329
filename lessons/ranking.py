"""The lesson ranking, written once: one ordered list of keys that gives both the Python sort key
and the ORM ordering. Every answer that ranks lessons (the check, the failure answer, boot hints,
history and insights) uses it.

An unverified lesson matched only through its writer's own words comes after every other match:
its error_pattern fitting the message, or a wording its writer sent (a sampled link, see
lessons.links). No key's own words rank its lesson above an approved one; what puts an
unverified lesson first is the fleet's evidence (a link confirmed by several keys) or a curator.
Then how well a lesson fits the error: linked to the message's own failure pattern, then its
error_pattern aligning with the message in order (a template), then by its words (see
lessons.matching), then only sharing the error type. Only then approval, the skill's own lessons
before generic ones, the ranking score (measured effectiveness weighed by its evidence, see
lessons.scoring), occurrences and recency; equal ranks by primary key.
"""

from functools import total_ordering
from typing import NamedTuple

from django.db.models import BooleanField, Case, Exists, F, OuterRef, Value, When

from .models import Lesson, PatternLink

# How a lesson fits the error, strongest first (the ``match`` of an answer).
FIT = {"pattern": 3, "template": 2, "words": 1, "type": 0}


class Key(NamedTuple):
    name: str  # an attribute of a ranked candidate, and a field or annotation in SQL
    descending: bool


RANKING = (
    Key("own_words", False),  # an unverified lesson matched by its writer's words alone: last
    Key("fit", True),  # FIT of the lesson's match
    Key("fit_score", True),  # the share of its pattern's distinctive words the message holds
    Key("fit_size", True),  # how specific its pattern is: the more specific fit first
    Key("approved", True),
    Key("own_skill", True),  # of the skill asked about, before generic lessons
    Key("rank_score", True),
    Key("occurrences", True),
    Key("last_occurred", True),
    Key("pk", False),
)
# The keys that describe how a lesson fits: equal for lessons found the same way.
FIT_KEYS = ("fit", "fit_score", "fit_size")
# The first keys, up to the last of FIT_KEYS: what a fit alone decides, before the lesson's row
# is read (whether it is its writer's own words, then how it fits).
LEADING = RANKING[: max(i for i, key in enumerate(RANKING) if key.name in FIT_KEYS) + 1]


@total_ordering
class _Descending:
    """A value that sorts the other way round (for values that cannot be negated)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return self.value == other.value

    def __lt__(self, other):
        return other.value < self.value


def _directed(value, descending: bool):
    if not descending:
        return value
    if isinstance(value, (bool, int, float)):
        return -value
    return _Descending(value)


def linked_by_own_words(lesson, pattern) -> Exists:
    """Whether the lesson's link to the pattern (ids, or references to them) is sampled: its
    writer's wording alone (lessons.links; a pattern merge carries it to the live pattern)."""
    return Exists(
        PatternLink.objects.filter(lesson=lesson, pattern=pattern, state=PatternLink.State.SAMPLED)
    )


def rank_key(candidate, keys: tuple[Key, ...] = RANKING) -> tuple:
    """The sort key of a candidate (anything with the names of ``keys`` as attributes), best
    first; ``keys`` a leading part of RANKING (LEADING) when only those are known."""
    return tuple(_directed(getattr(candidate, key.name), key.descending) for key in keys)


def lessons_ranked(
    queryset, *, skill_name: str | None = None, prefix: str = "", pattern_field: str | None = None
):
    """``queryset`` in RANKING's order, as SQL: lessons, or rows that reach a lesson through
    ``prefix`` (``"lesson__"``). Its rows are all found one way (linked to a pattern, or of a
    type), so the fit keys are equal for them and the other keys order them. Rows that link a
    lesson to the pattern their ``pattern_field`` names (``Lesson.patterns``' own rows) are
    ranked by whether that link is its writer's wording alone, too."""
    approved = Case(
        When(**{f"{prefix}status": Lesson.Status.APPROVED}, then=Value(True)),
        default=Value(False),
        output_field=BooleanField(),
    )
    own = Case(
        When(**{f"{prefix}skill_name": skill_name}, then=Value(True)),
        default=Value(False),
        output_field=BooleanField(),
    )
    annotations = {"rank_approved": approved}
    if skill_name:  # without one, no lesson is the skill's own
        annotations["rank_own_skill"] = own
    if pattern_field:
        annotations["rank_own_words"] = Case(
            When(**{f"{prefix}status": Lesson.Status.APPROVED}, then=Value(False)),
            default=linked_by_own_words(OuterRef(f"{prefix}pk"), OuterRef(pattern_field)),
            output_field=BooleanField(),
        )
    order = []
    for key in RANKING:
        if (
            key.name in FIT_KEYS
            or (key.name == "own_skill" and not skill_name)
            or (key.name == "own_words" and not pattern_field)
        ):
            continue
        name = f"rank_{key.name}" if f"rank_{key.name}" in annotations else prefix + key.name
        order.append(_ordered(name, key))
    return queryset.annotate(**annotations).order_by(*order)


# The keys that order rows equal in every key before them (one status, one skill or none, found
# the same way): the lessons' own measures, which the type's rank indexes hold in order
# (lesson_type_rank_idx, lesson_type_skill_rank_idx).
OWN_MEASURES = RANKING[[key.name for key in RANKING].index("rank_score") :]


def lessons_ranked_within(queryset):
    """``queryset`` in RANKING's order when its rows differ only in OWN_MEASURES: ordered by
    those alone, an order an index can give without sorting."""
    return queryset.order_by(*(_ordered(key.name, key) for key in OWN_MEASURES))


def _ordered(name: str, key: Key):
    """The ORM ordering of field or annotation ``name`` in ``key``'s direction."""
    return F(name).desc() if key.descending else F(name).asc()
