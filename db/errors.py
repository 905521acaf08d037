"""Typed errors raised by the storage layer; the bot translates each into one private reply."""

from __future__ import annotations

__all__ = [
    "AccessDenied",
    "AlreadySeated",
    "ChannelBusy",
    "CorruptRow",
    "GameNotFound",
    "MigrationError",
    "NoSuchSeat",
    "SchemaTooNew",
    "StaleVersion",
    "StoreError",
    "TargetNotEmpty",
    "TransferError",
    "Unavailable",
    "WrongStatus",
]


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class MigrationError(StoreError):
    """Raised when the migration files are malformed or one of them fails; nothing was applied."""


class SchemaTooNew(StoreError):
    """Raised when the database was written by newer code (its user_version is above ours)."""

    def __init__(self, found: int, supported: int) -> None:
        super().__init__(
            f"database schema version {found} is newer than this code supports ({supported}); "
            "upgrade the bot instead of opening this database with an older release"
        )
        self.found = found
        self.supported = supported


class GameNotFound(StoreError):
    """Raised when no game has the given id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class ChannelBusy(StoreError):
    """Raised when a channel already has a game in the lobby or playing."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has an active game ({game_id})")
        self.channel_id = channel_id
        self.game_id = game_id


class WrongStatus(StoreError):
    """Raised when a game is not in a status that allows the operation (e.g. joining a finished game)."""

    def __init__(self, game_id: int, status: str, allowed: tuple[str, ...]) -> None:
        super().__init__(f"game {game_id} is {status!r}; this needs one of {', '.join(allowed)}")
        self.game_id = game_id
        self.status = status
        self.allowed = allowed


class StaleVersion(StoreError):
    """Raised when an append names a sequence number other than the game's version (a double
    click or a race); nothing was written."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class AlreadySeated(StoreError):
    """Raised when a user already holds a seat at that game."""

    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(f"user {user_id} already sits at game {game_id}")
        self.game_id = game_id
        self.user_id = user_id


class NoSuchSeat(StoreError):
    """Raised when a seat number does not exist at that game."""

    def __init__(self, game_id: int, seat: int) -> None:
        super().__init__(f"game {game_id} has no seat {seat}")
        self.game_id = game_id
        self.seat = seat


class CorruptRow(StoreError):
    """Raised when a stored row cannot be decoded (malformed JSON, wrong shape, unknown status);
    the bot shows a private error and marks the game abandoned."""

    def __init__(self, game_id: int, detail: str) -> None:
        super().__init__(f"game {game_id}: corrupt row: {detail}")
        self.game_id = game_id
        self.detail = detail


class Unavailable(StoreError):
    """Raised when the database cannot be reached (server down, connection lost); nothing was
    written by the call that raised it, unless it says the outcome is unknown."""


class TransferError(StoreError):
    """Raised when a store's rows cannot be moved to another database (db.transfer); the target
    was left as it was (the copy is one transaction)."""


class TargetNotEmpty(TransferError):
    """Raised when the database to copy into already holds rows and the copy was not forced;
    ``held`` counts them per table."""

    def __init__(self, held: dict[str, int]) -> None:
        rows = {table: count for table, count in held.items() if count}
        games = rows.get("games", 0)
        super().__init__(f"the target already holds {games} games and {sum(rows.values()) - games} other rows "
                         f"({', '.join(sorted(rows))}): copy into an empty database, or force to replace them")
        self.held = rows


class AccessDenied(StoreError):
    """Raised when the database server answers but refuses the connection (an unknown database or
    user, a wrong password): unlike :class:`Unavailable`, waiting does not help; the settings are wrong."""
