"""Opening the database when the bot starts, or one line saying why it cannot and what to do.

An operator who mistypes ``DATABASE_PATH``, mounts a volume the bot's user cannot write, or starts
an older release on a newer database must read what to fix, not a traceback. The path is checked
before SQLite opens it: when aiosqlite's connect fails, its worker thread reports the failure once
more after the event loop has closed (a second traceback no handler can catch), so the failures a
path can cause are found first, with plain file-system calls.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

from db.errors import AccessDenied, MigrationError, SchemaTooNew, StoreError, Unavailable
from db.store import Store

__all__ = ["CannotOpen", "check_path", "open_store", "shown"]


class CannotOpen(Exception):
    """The database cannot be opened; the message is one line saying what to do."""


def check_path(path: str) -> None:
    """Create the database's folder if needed; raise CannotOpen when SQLite could not use ``path``."""
    if path == ":memory:" or "://" in path:
        return
    file = Path(path)
    if file.is_dir():
        raise CannotOpen(f"DATABASE_PATH {path} is a folder: point it at a file, e.g. {file / 'temple_table.sqlite3'}")
    folder = file.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), folder)
        raise CannotOpen(f"DATABASE_PATH {path} cannot be created: {blocker} is a file, not a folder; "
                         "choose another path") from None
    except PermissionError:
        raise CannotOpen(f"DATABASE_PATH {path} cannot be created: no permission to make the folder {folder}; "
                         "create it for the bot's user or choose another path") from None
    except OSError as exc:
        raise CannotOpen(f"DATABASE_PATH {path} cannot be created ({exc.strerror}); choose another path") from None
    if file.exists() and not os.access(file, os.R_OK | os.W_OK):
        raise CannotOpen(f"DATABASE_PATH {path} is not readable and writable by this user (uid {os.getuid()}): "
                         "give it to the bot's user (chown) or run the bot as its owner")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CannotOpen(f"the folder {folder} is not writable by this user (uid {os.getuid()}), and SQLite keeps "
                         "its journal files beside the database: give the folder to the bot's user (chown)")


def shown(path: str) -> str:
    """Return ``path`` as a message may show it: a URL without its password (the line goes to the logs)."""
    try:
        parts = urlsplit(path)
    except ValueError:
        return path.split("://", 1)[0] + "://..." if "://" in path else path
    if parts.password is None:
        return path
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


async def open_store(path: str) -> Store:
    """Open (and migrate) the database at ``path`` (a file, or a ``sqlite://`` / ``postgresql://``
    URL), creating an SQLite file's folder; raise CannotOpen otherwise."""
    check_path(path)
    where = shown(path)
    try:
        return await (Store.connect(path) if "://" in path else Store.open(path))
    except Unavailable as exc:
        raise CannotOpen(f"the database server cannot be reached ({exc}): check DATABASE_URL and that the "
                         "server is running") from None
    except AccessDenied as exc:
        raise CannotOpen(f"the database server was reached, but {exc}: check the user, password and database "
                         "name in DATABASE_URL (the database must exist; the bot creates only its tables)") from None
    except SchemaTooNew as exc:
        raise CannotOpen(f"the database {where} was written by a newer Temple Table (schema {exc.found}, this "
                         f"release reads up to {exc.supported}): run that newer release, or restore a backup") from None
    except MigrationError as exc:
        raise CannotOpen(f"the database {where} could not be upgraded ({exc}); it was left unchanged: "
                         "report this, and keep the file") from None
    except sqlite3.DatabaseError as exc:
        raise CannotOpen(f"{path} is not a readable SQLite database ({exc}): move it away to start afresh, "
                         "or restore a backup") from None
    except (StoreError, OSError) as exc:
        raise CannotOpen(f"the database {where} cannot be opened: {exc}") from None
