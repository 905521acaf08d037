"""Numbered SQL migrations, applied in one transaction and tracked by ``PRAGMA user_version``.

Each file in ``db/migrations/<dialect>/`` is named ``NNNN_reason.sql`` (numbers contiguous from 0001) and
starts with a comment header naming its reason and date. The files are package data, found next to
this module, never relative to the working directory. A migration file must not contain
transaction statements: the runner wraps every pending file in one ``BEGIN IMMEDIATE`` ...
``COMMIT`` together with the new ``user_version``, so a failure anywhere applies nothing.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from db.errors import MigrationError, SchemaTooNew

__all__ = [
    "Migration",
    "apply_migrations",
    "check_sequence",
    "load_migrations",
    "parse_migration",
    "rollback_quietly",
    "split_statements",
]

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_TRANSACTION = re.compile(r"^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: its number, its name and the SQL statements it holds."""

    version: int
    name: str
    statements: tuple[str, ...]


def split_statements(sql: str) -> list[str]:
    """Return the complete SQL statements of a script, in order (triggers stay whole)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statement = buffer.strip()
            if _has_code(statement):
                statements.append(statement)
            buffer = ""
    if _has_code(buffer):
        raise MigrationError(f"incomplete SQL statement at the end: {buffer.strip()[:80]!r}")
    return statements


def _has_code(text: str) -> bool:
    """Return True when ``text`` holds more than comments and blanks."""
    return any(line.strip() and not line.strip().startswith("--") for line in text.splitlines())


def parse_migration(filename: str, text: str, dialect: str = "sqlite") -> Migration:
    """Return the migration held in ``text``, checking its file name, header and statements.

    A PostgreSQL migration is one script (its PL/pgSQL bodies hold semicolons and BEGIN), run as a
    whole inside the runner's transaction.
    """
    match = _NAME.match(filename)
    if match is None:
        raise MigrationError(f"migration file {filename!r} is not named NNNN_reason.sql")
    header = text.split("\n\n", 1)[0]
    if not header.startswith("--") or "Reason:" not in header or "Date:" not in header:
        raise MigrationError(f"migration {filename} lacks its header comment (Reason:, Date:)")
    if dialect != "sqlite":
        if not _has_code(text):
            raise MigrationError(f"migration {filename} has no statements")
        return Migration(int(match.group(1)), filename, (text,))
    statements = split_statements(text)
    if not statements:
        raise MigrationError(f"migration {filename} has no statements")
    for statement in statements:
        if _TRANSACTION.match(_strip_comments(statement)):
            raise MigrationError(f"migration {filename} must not control transactions")
    return Migration(int(match.group(1)), filename, tuple(statements))


def check_sequence(migrations: list[Migration]) -> list[Migration]:
    """Return ``migrations`` sorted, raising MigrationError unless numbered 1, 2, ... without gaps."""
    ordered = sorted(migrations, key=lambda m: m.version)
    for expected, migration in enumerate(ordered, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration numbers must run 0001, 0002, ...; found {migration.name}")
    return ordered


def load_migrations(dialect: str = "sqlite") -> list[Migration]:
    """Return the migrations of ``dialect`` shipped in ``db/migrations/<dialect>/`` (package data)."""
    folder = resources.files("db").joinpath("migrations").joinpath(dialect)
    found = [
        parse_migration(entry.name, entry.read_text(encoding="utf-8"), dialect)
        for entry in (folder.iterdir() if folder.is_dir() else ())
        if entry.name.endswith(".sql")
    ]
    if not found:
        # An install without the package data would otherwise "migrate" to an empty schema.
        raise MigrationError(f"no migration files found in {folder}; is db/migrations/{dialect}/*.sql installed?")
    return check_sequence(found)


def _strip_comments(statement: str) -> str:
    """Return ``statement`` without its leading comment lines."""
    lines = statement.splitlines()
    while lines and (not lines[0].strip() or lines[0].strip().startswith("--")):
        lines.pop(0)
    return "\n".join(lines)


async def rollback_quietly(db: aiosqlite.Connection) -> None:
    """Roll back the open transaction, if any (after a failed COMMIT there may be none)."""
    with contextlib.suppress(sqlite3.OperationalError):
        await db.execute("ROLLBACK")


async def _user_version(db: aiosqlite.Connection) -> int:
    """Return the database's ``PRAGMA user_version``."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def apply_migrations(db: aiosqlite.Connection, migrations: list[Migration] | None = None) -> int:
    """Bring the database to the newest schema in one transaction and return its version.

    Raises SchemaTooNew when the database is newer than ``migrations``, MigrationError when a
    statement fails (the database is left exactly as it was). ``db`` must be in autocommit mode
    (``isolation_level=None``) and outside a transaction.
    """
    if migrations is None:
        migrations = load_migrations()
    latest = migrations[-1].version if migrations else 0
    current = await _user_version(db)
    if current > latest:
        raise SchemaTooNew(current, latest)
    if current == latest:
        return current
    # Foreign keys off for the duration (SQLite's recipe for table rebuilds), checked before commit;
    # the pragma is a no-op inside a transaction, so it is switched here, outside.
    await db.execute("PRAGMA foreign_keys = OFF")
    try:
        await db.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            current = await _user_version(db)
            if current > latest:
                raise SchemaTooNew(current, latest)
            for migration in migrations[current:]:
                for statement in migration.statements:
                    try:
                        await db.execute(statement)
                    except sqlite3.Error as exc:
                        raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
            async with db.execute("PRAGMA foreign_key_check") as cursor:
                broken = await cursor.fetchall()
            if broken:
                raise MigrationError(f"migrations leave broken foreign keys: {list(broken)[:5]}")
            await db.execute(f"PRAGMA user_version = {latest:d}")
            await db.execute("COMMIT")
        except BaseException:
            await rollback_quietly(db)
            raise
    finally:
        await db.execute("PRAGMA foreign_keys = ON")
    return latest
