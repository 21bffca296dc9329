"""factory_boy factories for the project's models."""
import factory

from lessons.models import Lesson


class LessonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Lesson

    error_pattern = factory.Sequence(lambda n: f"pattern_{n}")
    error_type = "timeout"
    resolution = factory.Sequence(lambda n: f"Do thing {n}")
    status = Lesson.Status.UNVERIFIED
    source = Lesson.Source.AGENT
