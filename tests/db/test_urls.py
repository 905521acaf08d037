"""Database URLs: one reading for the bot, the store and the copy tool."""

from __future__ import annotations

import pytest

from db.urls import is_postgresql, sqlite_path


@pytest.mark.parametrize(("url", "path"), [
    ("sqlite:///data/bot.sqlite3", "data/bot.sqlite3"),
    ("sqlite:////var/lib/bot.sqlite3", "/var/lib/bot.sqlite3"),
    ("sqlite://:memory:", ":memory:"),
    ("data/bot.sqlite3", "data/bot.sqlite3"),
])
def test_an_sqlite_url_names_a_relative_or_absolute_file(url: str, path: str):
    assert sqlite_path(url) == path


def test_postgresql_urls_are_told_apart_from_sqlite_ones():
    assert [is_postgresql(u) for u in ("postgresql://h/db", "postgres://h/db", "sqlite:///x", "x.db")] == [
        True, True, False, False]
