"""A merged pattern is followed to its live one by one rule (failures.live), which its ORM
expression, its SQL form and its Python form all spell, also along a chain of merges."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from failures.live import live_of, live_pattern, live_pattern_sql
from failures.models import Failure, FailurePattern
from failures.records.services import failure_record
from failures.store.mining import patterns_merge
from failures.store.patterns import pattern_live

pytestmark = pytest.mark.django_db


def test_every_form_of_the_rule_agrees_along_a_chain_of_merges():
    now = timezone.now()
    first, second, third = (
        failure_record(
            agent="a1", task=f"t{n}", error=error, occurred_at=now - timedelta(minutes=n)
        ).pattern
        for n, error in enumerate(
            [
                "disk full on vol-1",
                "quota exceeded for project alpha",
                "upstream gateway timed out",
            ]
        )
    )
    # first -> second, then second -> third: first follows.
    patterns_merge(pattern_ids={first.pk, second.pk}, template=second.template)
    patterns_merge(pattern_ids={second.pk, third.pk}, template=third.template)
    # A failure written while a merge ran may still name an alias.
    late = failure_record(agent="a2", task="late", error="anything else", occurred_at=now)
    Failure.objects.filter(pk=late.pk).update(pattern=first)

    lives = dict(FailurePattern.objects.annotate(live=live_pattern()).values_list("pk", "live"))
    for pattern in FailurePattern.objects.select_related("merged_into"):
        assert lives[pattern.pk] == live_of(pattern).pk == pattern_live(pattern=pattern).pk
    assert lives[first.pk] == lives[second.pk] == lives[third.pk] == third.pk
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT p.id, {live_pattern_sql('p.id')} FROM failures_failurepattern p")
        assert dict(cursor.fetchall()) == lives

    failures = Failure.objects.select_related("pattern__merged_into").annotate(
        live=live_pattern("pattern"), live_template=live_pattern("pattern", "template")
    )
    for failure in failures:
        assert failure.live == live_of(failure.pattern).pk
        assert failure.live_template == live_of(failure.pattern).template
    assert failures.get(pk=late.pk).live == third.pk


def test_chains_stored_before_merges_flattened_them_are_flattened_by_the_migration():
    from importlib import import_module

    from django.apps import apps

    flatten = import_module("failures.migrations.0012_flatten_alias_chains").flatten
    patterns = [
        FailurePattern.objects.create(
            fingerprint=f"fp{n}", template=f"t{n}", token_count=1, head=f"t{n}"
        )
        for n in range(4)
    ]
    for alias, target in zip(patterns, patterns[1:]):  # 0 -> 1 -> 2 -> 3, as merges left them
        FailurePattern.objects.filter(pk=alias.pk).update(merged_into=target)

    flatten(apps, None)

    assert dict(FailurePattern.objects.values_list("pk", "merged_into_id")) == {
        patterns[0].pk: patterns[3].pk,
        patterns[1].pk: patterns[3].pk,
        patterns[2].pk: patterns[3].pk,
        patterns[3].pk: None,
    }
