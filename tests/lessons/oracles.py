"""Rules of the check written out plainly, lesson by lesson, for tests that compare the fast
paths with them."""

from lessons.matching import compile_pattern, prepare_message


def told_apart(pattern: str, patterns, message: str) -> bool:
    """A words fit that misses a word: whether another pattern holds every distinctive word of
    this one the message holds, but not all of this one's."""
    own = compile_pattern(pattern).distinctive
    shared = own & set(prepare_message(message).word_set)
    return any(
        shared <= compile_pattern(other).distinctive
        and not own <= compile_pattern(other).distinctive
        for other in patterns
        if other != pattern
    )
