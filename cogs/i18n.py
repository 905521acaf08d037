"""One translation function for every user-facing string, with the English catalogue.

Keys are dotted names; values are ``str.format`` templates. A missing key in another language
falls back to English, and a missing key in English shows the key itself (a visible bug, never
a crash). More languages come as more catalogues in ``CATALOGUES``.
"""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["CATALOGUES", "t"]

log = logging.getLogger(__name__)

EN: dict[str, str] = {
    # errors (one per SessionError code, plus Discord-side ones)
    "error.no_table": "There is no table in this channel. Start one with `/{command} new`.",
    "error.gone": "That table is over.",
    "error.channel_busy": "This channel already has a table. Finish or cancel it first.",
    "error.already_seated": "You already sit at this table.",
    "error.table_full": "The table is full ({max} seats).",
    "error.not_seated": "You are not seated at this table.",
    "error.unknown_level": "Unknown bot level. Choose one of: {levels}.",
    "error.no_ai": "There is no bot seat to remove.",
    "error.not_host": "Only the host (or someone who can manage the server) may do that.",
    "error.too_few": "At least {min} players are needed to start.",
    "error.already_started": "The game has already started.",
    "error.not_playing": "The game is not running.",
    "error.not_lobby": "The lobby is closed.",
    "error.stale": "That choice is over: the game has moved on.",
    "error.not_your_turn": "There is nothing for you to decide right now.",
    "error.illegal": "That move is not allowed now.",
    "error.bad_option": "That option is not valid: {detail}",
    "error.wrong_game": "This channel's table is a game of {game}; use its own commands.",
    "error.guild_only": "Tables live in server channels, not in DMs.",
    "error.internal": "Something went wrong on my side; nothing was changed. Please try again.",
    "error.no_permission": "I cannot post in this channel (I need Send Messages, Embed Links and "
                           "Attach Files here).",
    # lobby
    "lobby.title": "{game} — table open",
    "lobby.host": "Host: {host}",
    "lobby.seats": "Seats ({count}/{max})",
    "lobby.empty": "(nobody yet)",
    "lobby.options": "Options",
    "lobby.hint": "Press **Join** to sit down. The host presses **Start** when everyone is in.",
    "lobby.two_players": "Two players work, but this game is best with 3 or more.",
    "lobby.join": "Join",
    "lobby.leave": "Leave",
    "lobby.start": "Start",
    "lobby.cancel": "Cancel",
    "lobby.add_bot": "Add {level} bot",
    "lobby.remove_bot": "Remove bot",
    "lobby.joined": "You joined the table.",
    "lobby.done": "Done.",
    "lobby.opened": "Your table is open: the lobby message is in the channel.",
    "lobby.left": "You left the table.",
    "lobby.dm_closed": "I could not send you a direct message. Your secret choices will come as "
                       "private prompts here: press **Choose** on the game message.",
    "lobby.dm_ok": "You joined {game} in {channel}. Your secret choices will arrive here.",
    "lobby.cancelled": "The table was cancelled.",
    "lobby.closed_empty": "Everyone left: the table is closed.",
    "lobby.abandoned": "This table's saved game could not be read and was closed. Sorry! Start a new one.",
    "lobby.started": "The game has started!",
    # shared play
    "play.rematch": "Rematch",
    "play.choose": "Choose",
    "play.my_status": "My status",
    "play.timeout_reminder": "{names}: {seconds} seconds left to decide.",
    "play.timed_out": "{names} did not decide in time: {label}.",
    "play.winner": "Winner: {names}",
    "play.winners": "Shared win: {names}",
    "play.rematch_open": "A rematch table is open.",
    "play.ai_tag": "bot",
    "play.and": "{first} and {last}",
    # Incan Gold
    "incan.name": "Incan Gold",
    "incan.round_title": "Incan Gold — expedition {round}/{rounds}",
    "incan.path": "Path",
    "incan.path_empty": "(no card yet)",
    "incan.path_gems": "Gems on the path: {gems}",
    "incan.artifacts_on_path": "Artifacts on the path: {artifacts}",
    "incan.hazards_seen": "Hazards seen",
    "incan.removed": "Removed from the game",
    "incan.cards_left": "Cards left",
    "incan.inside": "Still inside",
    "incan.nobody": "nobody",
    "incan.chosen": "{chosen} of {deciding} have chosen",
    "incan.log": "What happened",
    "incan.none": "none",
    "incan.torch": "Torch (stay)",
    "incan.camp": "Camp (leave)",
    "incan.card_treasure": "💎 {value} gems: {each} each, {left} left on the path.",
    "incan.card_hazard": "⚠️ {hazard} — a warning.",
    "incan.card_artifact": "🏺 An artifact ({artifact}) lies on the path.",
    "incan.collapse": "💥 A second {hazard}! The temple collapses; {names} lose what they carried.",
    "incan.collapse_empty": "💥 A second {hazard}! The temple collapses.",
    "incan.camp_one": "{names} returned to camp and took {share} gems from the path{artifacts}.",
    "incan.camp_many": "{names} returned to camp and split {total} gems ({share} each){left}.",
    "incan.camp_left": ", {left} stay on the path",
    "incan.camp_artifacts": " and the artifact(s) {artifacts}",
    "incan.still_inside": "{names} still inside.",
    "incan.all_torch": "Everyone carries the torch deeper.",
    "incan.round_end": "Expedition {round} is over.",
    "incan.deck_out": "The deck ran out: everyone inside banks what they carry.",
    "incan.you_title": "Incan Gold in {channel} — expedition {round}, card {card}",
    "incan.you_state": "You carry **{carried}** gems; **{banked}** are safe in your tent{artifacts}.",
    "incan.you_artifacts": ", plus artifacts {artifacts}",
    "incan.you_ask": "Carry the **torch** deeper, or return to **camp**?",
    "incan.you_chose": "You chose **{choice}**. Waiting for the others…",
    "incan.you_out": "You are back at camp for this expedition.",
    "incan.you_over": "The game is over: the final scores are in {channel}.",
    "incan.you_can_change": "You may still change your mind once this game.",
    "incan.summary_title": "Incan Gold — final scores",
    "incan.summary_line": "{place}. {name}: **{score}** ({gems} gems{artifacts})",
    "incan.summary_artifacts": " + artifacts {artifacts}",
    "incan.timeout_label": "they returned to camp",
    "incan.opt_preset": "preset: {preset}",
    "incan.opt_scoring": "artifacts: {scoring}",
    "incan.opt_open_tents": "open tents",
    "incan.opt_one_change": "one change per game",
    "incan.opt_timeout": "decision time: {seconds} s",
    "incan.rules1_title": "Incan Gold — the idea",
    "incan.rules1": "Explore a temple for five expeditions. Cards are turned one at a time; after each card every "
                    "explorer still inside secretly chooses **Torch** (go deeper) or **Camp** (go home). All "
                    "choices are revealed at once.",
    "incan.rules2_title": "Treasure and the path",
    "incan.rules2": "A treasure card is split evenly among the explorers inside; the remainder stays on the path. "
                    "Explorers who return to camp together split the path's gems; the rest stays there. Gems are "
                    "safe only once they are in your tent.",
    "incan.rules3_title": "Hazards",
    "incan.rules3": "The first hazard of a kind is a warning. A second of the same kind collapses the temple: "
                    "everyone still inside loses what they carried this expedition, and that hazard card leaves "
                    "the game.",
    "incan.rules4_title": "Artifacts and scoring",
    "incan.rules4": "An artifact goes to an explorer who returns to camp **alone**. The highest total of gems and "
                    "artifact points wins; a tie goes to the most artifacts. Presets: `incan-gold`, "
                    "`incan-gold-modern`, `diamant` (no artifacts) and `forsvunna-diamanten` (rising temples). "
                    "If you do not decide in time, you return to camp.",
    # leaderboard
    "lb.game.incan_gold": "Incan Gold",
    "lb.game.sakkara": "Sakkara",
    "lb.game.indus": "Indus",
    "lb.all_games": "All games",
    "lb.by.rating": "rating",
    "lb.by.wins": "wins",
    "lb.by.win_rate": "win rate",
    "lb.by.games": "games played",
    "lb.period.all": "all time",
    "lb.period.30d": "last 30 days",
    "lb.title": "Leaderboard — {game} — {by} ({period})",
    "lb.line.rating": "**{rating:.1f}** ({games} games)",
    "lb.line.wins": "**{wins}** wins ({games} games)",
    "lb.line.win_rate": "**{rate:.0%}** ({wins} of {games})",
    "lb.line.games": "**{games}** games ({wins} wins)",
    "lb.ai_name": "🤖 {level} bot",
    "lb.empty": "Nobody qualifies yet: no finished games here for this ranking.",
    "lb.footer": "Page {page}/{pages}",
    "lb.min_games": "at least {count} games to be ranked",
    "lb.rating_note": "rating = skill − 3 × uncertainty (OpenSkill)",
    "lb.stats.title": "Stats — {name}",
    "lb.stats.never": "{name} has not finished a game on this server yet.",
    "lb.stats.games": "Games **{games}** · wins **{wins}** ({rate:.0%})",
    "lb.stats.scores": "Score: average **{average:.1f}**, best **{best}**",
    "lb.stats.rating": "Rating **{rating:.1f}** (skill {mu:.1f} ± {sigma:.1f})",
    "lb.stats.trend": "Trend {spark} {change:+.1f} over the last {games} games",
    "lb.stats.favourite": "Favourite setup",
    "lb.stats.favourite_line": "{game}, {preset} ({games} games)",
    "lb.stats.vs_ai": "Against the bots",
    "lb.stats.vs_ai_line": "{level}: {games} games — ahead {ahead}, behind {behind}, level {level_with}",
    "lb.stats.vs_ai_none": "No games with bots yet.",
    "lb.hist.title": "Recent games — {name}",
    "lb.hist.none": "{name} has no games on this server yet.",
    "lb.hist.result": "place {place} of {players}, {score} points{win}",
    "lb.hist.cancelled": "cancelled",
    "lb.hist.abandoned": "abandoned",
    "lb.hist.finished": "finished",
    "lb.hist.jump": "message",
    "lb.hist.footer": "/game log <number> sends a game's full log",
    "lb.error.rating_needs_game": "Ratings are kept per game: choose a game for a rating leaderboard.",
    "lb.error.bad_page": "That leaderboard button is no longer valid. Run /leaderboard again.",
    "lb.error.no_game": "There is no game #{id} on this server.",
    "lb.error.not_over": "Game #{id} is not over yet: its log (with everyone's hidden choices) opens when it ends.",
    "lb.error.never_started": "Game #{id} never started, so it has no log.",
    "lb.error.unreadable": "Game #{id}'s saved log cannot be read.",
    "lb.log.embed_title": "Game #{id} — {game}",
    "lb.log.embed_text": "The full log ({actions} actions, {status}) is attached.",
    "lb.log.title": "Game #{id}: {game}, preset {preset}",
    "lb.log.status": "Status: {status}; seed {seed}; started {started}; ended {finished}",
    "lb.log.players": "Seats: {players}",
    "lb.log.chance": "chance",
    "lb.log.result": "Result:",
    "lb.log.result_line": "  {place}. {name}: {score}{win}",
    "lb.log.round": "Expedition {round}",
    "lb.log.treasure": "  Card: {value} gems — {each} each, {left} left on the path",
    "lb.log.hazard": "  Card: hazard {hazard}",
    "lb.log.artifact": "  Card: artifact {card}",
    "lb.log.collapse": "  Second {hazard}: the temple collapses; lost: {lost}",
    "lb.log.choices": "  Choices: {choices}",
    "lb.log.camp": "  Back to camp: {homes} (left on the path: {left}){artifacts}",
    "lb.log.round_end": "  Expedition {round} over ({reason})",
}

CATALOGUES: dict[str, dict[str, str]] = {"en": EN}


def t(key: str, locale: str | None = None, **values: Any) -> str:
    """Return the text for ``key`` in ``locale`` (English fallback), formatted with ``values``."""
    catalogue = CATALOGUES.get((locale or "en").split("-")[0], EN)
    template = catalogue.get(key) or EN.get(key)
    if template is None:
        log.warning("missing translation key %s", key)
        return key
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        log.warning("translation %s lacks a value: %s", key, values)
        return template
