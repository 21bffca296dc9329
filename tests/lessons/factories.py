"""factory_boy factories for lessons: rows straight into the table, for tests that need many of
them or fields no API call sets (other tests record lessons through the API)."""

import factory

from lessons.match_index import match_index_bump
from lessons.models import Lesson


class LessonFactory(factory.django.DjangoModelFactory):
    """Lessons straight into the table; checks see them at once (the index is bumped)."""

    class Meta:
        model = Lesson

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        lesson = super()._create(model_class, *args, **kwargs)
        match_index_bump()
        return lesson

    error_pattern = factory.Sequence(lambda n: f"pattern_{n}")
    error_type = "timeout"
    resolution = factory.Sequence(lambda n: f"Do thing {n}")
    status = Lesson.Status.UNVERIFIED
    source = Lesson.Source.AGENT
