"""Reads of lessons: the check (matched and related lessons, ranked), the filtered, paged list,
and each pattern's best lesson."""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, TypedDict
from uuid import UUID

from django.db.models import OuterRef, Q, QuerySet, Value

from config.api.filtering import filtered
from config.errors import NotFound
from failures.models import UNKNOWN_ERROR_TYPE
from failures.records.selectors import pattern_of_message

from .filters import LessonFilter
from .match_index import MatchIndex, match_index
from .matching import compile_pattern, names_apply, names_held, prepare_message
from .models import Lesson
from .ranking import (
    FIT,
    LEADING,
    lessons_ranked,
    lessons_ranked_within,
    linked_by_own_words,
    rank_key,
)

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

# Most message fits read for the final ranking, best fits first: a generic message can fit many
# lessons equally, and reading every one would cost a row each.
MESSAGE_CANDIDATES = 100


@dataclass(frozen=True)
class CheckedLesson:
    """A lesson in an answer: why it is there, and its place in the ranking (lessons.ranking)."""

    lesson: Lesson
    match: str  # "pattern", "template", "words" (it matches the error) or "type" (related)
    score: float  # the share of its pattern's distinctive words found (1.0 by pattern or template)
    fit_size: float = 0.0  # how specific its pattern is (see lessons.matching)
    own_skill: bool = False  # of the skill asked about
    # Unverified, and matched only through its writer's own words: its error_pattern, or a
    # wording it sent (a sampled link).
    own_words: bool = False

    @property
    def fit(self) -> int:
        return FIT[self.match]

    @property
    def fit_score(self) -> float:
        return self.score

    @property
    def approved(self) -> bool:
        return self.lesson.status == Lesson.Status.APPROVED

    def __getattr__(self, name):
        # Serializers and the ranking read the lesson's own fields straight off the entry.
        return getattr(self.lesson, name)


@dataclass(frozen=True)
class CheckAnswer:
    """Lessons that match the error itself, best first, and apart those that share only its
    type (``related``): only the first are a known resolution."""

    lessons: list[CheckedLesson] = field(default_factory=list)
    related: list[CheckedLesson] = field(default_factory=list)

    @property
    def has_resolution(self) -> bool:
        return bool(self.lessons)

    @property
    def has_approved_resolution(self) -> bool:
        return any(entry.approved for entry in self.lessons)


def lesson_check(
    *,
    error_type: str | None = None,
    skill_name: str | None = None,
    error_message: str | None = None,
    limit: int = 5,
    approved_only: bool = False,
    pattern=None,
    index: MatchIndex | None = None,
) -> CheckAnswer:
    """Known resolutions for an error, each list best first (lessons.ranking); rejected lessons
    never appear, nor other skills' lessons when ``skill_name`` is given.

    A lesson matches when it is linked to the message's failure pattern or its error_pattern
    fits the message (lessons.matching); up to ``limit`` of those, and up to ``limit`` lessons
    of ``error_type`` that do not match, as related. ``approved_only`` leaves unverified lessons
    out (for prompts that must not carry them); ``pattern``, when the caller already knows the
    message's FailurePattern, and ``index``, when it holds the current match index (read with
    its own rows), save looking them up.
    """
    if error_type == UNKNOWN_ERROR_TYPE:  # a failure recorded without a type names none
        error_type = None
    candidates = Lesson.objects.exclude(status=Lesson.Status.REJECTED)
    if approved_only:
        candidates = candidates.filter(status=Lesson.Status.APPROVED)
    if skill_name:
        candidates = candidates.filter(Q(skill_name=skill_name) | Q(skill_name__isnull=True))
    matched: list[CheckedLesson] = []
    excluded: dict[UUID, str] = {}
    if error_message:
        matched, excluded = _matched(
            candidates,
            error_type=error_type,
            error_message=error_message,
            skill_name=skill_name,
            approved_only=approved_only,
            limit=limit,
            pattern=pattern,
            index=index or match_index(),
        )
    related = []
    if error_type:
        # Of the type, or of its class named without the module (as lessons often record it).
        types = {error_type, error_type.rsplit(".", 1)[-1]}
        related = _of_type(
            candidates,
            types,
            skill_name=skill_name,
            limit=limit,
            excluded=[pk for pk, lesson_type in excluded.items() if lesson_type in types],
        )
    return CheckAnswer(matched, related)


def _of_type(candidates, types: set[str], *, skill_name, limit, excluded) -> list[CheckedLesson]:
    """The best ``limit`` of the ``candidates`` of ``types`` but the ``excluded`` ones, ranked.
    The lessons of one type, one status and one skill (or none) differ only in their own
    measures: each such part is read in the order of its index up to ``limit`` rows, all in one
    statement, and the parts are merged here, instead of sorting every lesson of the type."""
    skills = [Q(skill_name=skill_name), Q(skill_name__isnull=True)] if skill_name else [Q()]
    parts = [
        lessons_ranked_within(
            candidates.filter(skill, error_type=lesson_type, status=status).exclude(
                pk__in=excluded
            )
        )[:limit]
        for lesson_type in sorted(types)
        for status in (Lesson.Status.APPROVED, Lesson.Status.UNVERIFIED)
        for skill in skills
    ]
    rows = parts[0].union(*parts[1:], all=True)
    return sorted(
        (
            CheckedLesson(lesson, "type", 0.0, own_skill=_own(lesson, skill_name))
            for lesson in rows
        ),
        key=rank_key,
    )[:limit]


def _matched(
    candidates,
    *,
    error_type,
    error_message,
    skill_name,
    approved_only,
    limit,
    pattern,
    index: MatchIndex,
) -> tuple[list[CheckedLesson], dict[UUID, str]]:
    """The best ``limit`` candidates linked to the message's pattern or fitting the message,
    ranked, and ``{pk: error type}`` of every one that matches. A link counts only when the
    message names what the lesson's pattern names (another module, host or quoted name is
    another fault, whatever the template says), unless the linked pattern is another wording
    altogether (matching.names_apply). A lesson found more than one way is ranked by
    the best of them (a sampled link ranks after a template fit, see lessons.ranking)."""
    message = prepare_message(error_message)
    fits = index.fits(
        message, error_type=error_type, skill_name=skill_name, approved_only=approved_only
    )
    if pattern is None:
        pattern = pattern_of_message(message=error_message)
    # Linked, and the fits that can reach the answer: each part reads through an index (an OR
    # of the two would not).
    parts = []
    if pattern is not None:
        parts.append(
            candidates.filter(patterns=pattern.pk).annotate(
                linked=Value(True), sampled=linked_by_own_words(OuterRef("pk"), pattern.pk)
            )
        )
    if fits:
        parts.append(
            candidates.filter(pk__in=_reaching(fits, limit)).annotate(
                linked=Value(False), sampled=Value(False)
            )
        )
    if not parts:
        return [], {}
    rows = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    found: dict = {}
    for lesson in rows:
        for entry in _ways_found(lesson, fits, message, pattern, skill_name):
            if lesson.pk not in found or rank_key(entry) < rank_key(found[lesson.pk]):
                found[lesson.pk] = entry
    excluded = {pk: hit.error_type for pk, hit in fits.items()}
    excluded.update((pk, entry.lesson.error_type) for pk, entry in found.items())
    return sorted(found.values(), key=rank_key)[:limit], excluded


class _Reached(TypedDict):
    """What _matched's rows carry besides the lesson: whether it was found through its link to
    the message's pattern, and whether that link was made by its writer's own words."""

    linked: bool
    sampled: bool


def _ways_found(
    lesson: "WithAnnotations[Lesson, _Reached]", fits: dict, message, pattern, skill_name
) -> list[CheckedLesson]:
    """How a row of _matched matches: through its link to the message's ``pattern``, and by
    its fit, each when it does."""
    own = _own(lesson, skill_name)
    ways = []
    if lesson.linked and _names_held_if_they_apply(
        compile_pattern(lesson.error_pattern), message, pattern
    ):
        own_words = lesson.sampled and lesson.status != Lesson.Status.APPROVED
        ways.append(CheckedLesson(lesson, "pattern", 1.0, own_skill=own, own_words=own_words))
    if lesson.pk in fits:
        fitted = fits[lesson.pk].fit
        ways.append(
            CheckedLesson(
                lesson,
                fitted.kind,
                fitted.score,
                fitted.size,
                own,
                own_words=lesson.status != Lesson.Status.APPROVED,
            )
        )
    return ways


def _names_held_if_they_apply(compiled, message, pattern) -> bool:
    """Whether the message names what the lesson's pattern names, where that applies to the
    linked ``pattern``: not to another wording altogether (matching.names_apply)."""
    return names_held(compiled, message) or not names_apply(compiled, pattern.template)


def _reaching(fits: dict, limit: int) -> list:
    """The fits that can be among the best ``limit``: ranked by the first keys of the ranking
    (approved before a writer's own words, then how they fit), the first ``limit`` and those
    that tie with the last of them, at most MESSAGE_CANDIDATES. Equal fits in key order, so that
    every process loads the same ones (``fits`` comes in an order that may differ from one
    process to the next)."""

    def how(item):
        found = item[1]
        # A fit of an unverified lesson is its writer's own words (see _ways_found).
        fitted = _Leading(not found.approved, FIT[found.fit.kind], found.fit.score, found.fit.size)
        return rank_key(fitted, LEADING)

    ranked = sorted(fits.items(), key=lambda item: (how(item), item[0]))
    if len(ranked) > limit:
        last = how(ranked[limit - 1])
        ranked = [item for item in ranked if how(item) <= last]
    return [pk for pk, _fit in ranked[:MESSAGE_CANDIDATES]]


class _Leading(NamedTuple):
    """What a fit alone tells of the ranking's LEADING keys."""

    own_words: bool
    fit: int
    fit_score: float
    fit_size: float


def _own(lesson: Lesson, skill_name: str | None) -> bool:
    return bool(skill_name) and lesson.skill_name == skill_name


def lesson_list(*, filters: dict) -> QuerySet[Lesson]:
    """Lessons matching ``filters`` (see LessonFilter), most recently occurred first."""
    lessons = filtered(LessonFilter, filters, Lesson.objects.all())
    return lessons.order_by("-last_occurred", "id")


def lesson_get(*, lesson_id) -> Lesson:
    """One lesson by id; NotFound when there is none."""
    try:
        return Lesson.objects.get(pk=lesson_id)
    except Lesson.DoesNotExist:
        raise NotFound("No such lesson.") from None


def lessons_best_by_pattern(pattern_ids) -> dict[int, tuple[str, bool]]:
    """For each pattern, the resolution of its best linked lesson (lessons.ranking) and whether
    it is approved; rejected lessons never."""
    if not pattern_ids:
        return {}
    links = Lesson.patterns.through.objects.filter(failurepattern_id__in=set(pattern_ids)).exclude(
        lesson__status=Lesson.Status.REJECTED
    )
    best: dict[int, tuple[str, bool]] = {}
    ranked = lessons_ranked(links, prefix="lesson__", pattern_field="failurepattern_id")
    for pattern_id, resolution, status in ranked.values_list(
        "failurepattern_id", "lesson__resolution", "lesson__status"
    ):
        best.setdefault(pattern_id, (resolution, status == Lesson.Status.APPROVED))
    return best


def lesson_ids_missing(ids) -> set:
    """Which of these lesson ids name no lesson (for requests that refer to lessons)."""
    wanted = {pk for pk in ids if pk is not None}
    if not wanted:
        return set()
    return wanted - set(Lesson.objects.filter(pk__in=wanted).values_list("pk", flat=True))
