"""Database URLs as operators write them: ``postgresql://...`` or ``sqlite:///path`` (or a plain path).

One reading of a URL for every door that takes one (``DATABASE_URL``, :meth:`db.Store.connect`,
``python -m db.copy``), so a URL that opens the bot's database opens the same one in the tools.
"""

from __future__ import annotations

__all__ = ["POSTGRESQL_SCHEMES", "URL_SCHEMES", "is_postgresql", "sqlite_path"]

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")
URL_SCHEMES = (*POSTGRESQL_SCHEMES, "sqlite://")
"""The prefixes of the URLs the store opens."""


def is_postgresql(url: str) -> bool:
    """Return True when ``url`` names a PostgreSQL database."""
    return url.startswith(POSTGRESQL_SCHEMES)


def sqlite_path(url: str) -> str:
    """Return the file an ``sqlite://`` URL (or a plain path) names.

    As SQLAlchemy reads them: ``sqlite:///relative/path`` and ``sqlite:////absolute/path``.
    """
    if not url.startswith("sqlite://"):
        return url
    path = url.removeprefix("sqlite://")
    # The third slash ends the (empty) host part; a fourth one starts an absolute path.
    return path[1:] if path.startswith("/") else path
