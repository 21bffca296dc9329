"""The home page at ``/``: public, shows no stored data, and says when the database is down."""

import re

import pytest
from django.db import DatabaseError

from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db


def test_the_home_page_is_public_and_names_no_stored_data(client):
    lesson = LessonFactory(error_pattern="stripe_secret_pattern", resolution="secret fix")
    answer = client.get("/")
    assert answer.status_code == 200
    text = answer.content.decode()
    assert re.search(r'Database:\s*<span class="status-ok">reachable</span>', text)
    assert lesson.error_pattern not in text and lesson.resolution not in text
    assert client.head("/").status_code == 200
    assert client.post("/").status_code == 405


def test_the_home_page_says_the_database_is_not_reachable(client, monkeypatch):
    def down(*args, **kwargs):
        raise DatabaseError("the database system is shutting down")

    monkeypatch.setattr("config.home.connection.cursor", down)
    answer = client.get("/")
    assert answer.status_code == 503
    assert "not reachable" in answer.content.decode()
