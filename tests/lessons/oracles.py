"""Rules of the check written out plainly, lesson by lesson, for tests that compare the fast
paths with them."""

from lessons.matching import compile_pattern, prepare_message


def told_apart(pattern: str, patterns, message: str) -> bool:
    """A words fit that misses a word: whether another pattern holds every distinctive word of
    this one the message holds (a class as fit reads it), but not all of this one's."""
    compiled, prepared = compile_pattern(pattern), prepare_message(message)
    own = compiled.distinctive
    shared = {  # a CamelCase class is held when it begins a message word
        word
        for word in own
        if word in prepared.word_set
        or (word in compiled.classes and any(w.startswith(word) for w in prepared.words))
    }
    return any(
        shared <= compile_pattern(other).distinctive
        and not own <= compile_pattern(other).distinctive
        for other in patterns
        if other != pattern
    )
