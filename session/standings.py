"""Standings: results and ratings kept when a game ends, read by /game stats and the leaderboard.

Each ended game is counted once, per server and over all servers, per game id
(``db/standings.py`` holds the SQL and the once-only key). What counts:

- a finished game: every human player's place, win and points;
- a game abandoned with ``/game abandon`` by one of its players: that player is placed last
  alone (a loss); the others keep their order from the position at that moment, and the best of
  them wins; points are not counted (the game was not played to the end);
- a game ended by a unanimous vote, archived for inactivity or abandoned by someone who was not
  playing: not counted.

Ratings are openskill's Plackett-Luce model (several players, shared places), between human
players only: computer seats are left out of the rating, and a game with one human is counted
in the statistics but not rated. The leaderboard orders by ``mu - 3 sigma`` (openskill's
ordinal: a rating the player is very likely to have at least), so a new player starts at 0
and one lucky game does not top the table.
"""

from __future__ import annotations

import logging
from typing import Any

from openskill.models import PlackettLuce

from db.database import Database
from db.standings import (
    EVERYWHERE,
    EndedGame,
    PlayerResult,
    Rating,
    RatingRace,
    StandingsStore,
)

log = logging.getLogger(__name__)

#: games against people before a player is listed on a leaderboard
RANKED_AFTER = 3
#: attempts when another process rates the same player at the same moment
RACE_RETRIES = 5

MODEL = PlackettLuce()


def judge(game: EndedGame) -> list[PlayerResult] | None:
    """The human players' results of an ended game, or None when it does not count."""
    if game.result is None or not game.humans:
        return None
    ranking: list[list[int]] = [list(group) for group in game.result["ranking"]]
    abandoner_seat: int | None = None
    if game.status == "abandoned":
        abandoner_seat = next((seat for seat, user in game.humans.items()
                               if user == game.ended_by), None)
        if abandoner_seat is None:
            return None  # ended by a vote, by inactivity, or by someone not playing
        ranking = [[s for s in group if s != abandoner_seat] for group in ranking]
        ranking = [group for group in ranking if group] + [[abandoner_seat]]
    place = {seat: n for n, group in enumerate(ranking) for seat in group}
    totals = game.result.get("totals", [])
    return [PlayerResult(user_id=user, place=place[seat],
                         won=place[seat] == 0 and seat != abandoner_seat,
                         abandoned=seat == abandoner_seat,
                         points=totals[seat] if game.status == "finished" else None)
            for seat, user in sorted(game.humans.items())]


def rate(before: list[tuple[int, int, Rating]]) -> dict[int, tuple[float, float, float]]:
    """One game's new ratings: user -> (mu, sigma, ordinal); ``before`` holds each player's
    place (0 = first, shared places equal) and rating before the game."""
    teams = [[MODEL.rating() if r.mu is None or r.sigma is None
              else MODEL.rating(mu=r.mu, sigma=r.sigma)] for _, _, r in before]
    after = MODEL.rate(teams, ranks=[place for _, place, _ in before])
    return {user: (team[0].mu, team[0].sigma, team[0].ordinal())
            for (user, _, _), team in zip(before, after, strict=True)}


class Standings:
    def __init__(self, db: Database) -> None:
        self.store = StandingsStore(db)

    async def record(self, session_id: int, now: str) -> bool:
        """Count an ended game (once, however often it is called); True if this call did."""
        for _ in range(RACE_RETRIES):
            try:
                return await self.store.record(session_id, now, judge, rate)
            except RatingRace:
                log.info("game %s: a player was rated meanwhile; rating again", session_id)
        # the game itself is stored; the next start's catch_up counts it
        log.warning("game %s: not counted after %d attempts", session_id, RACE_RETRIES)
        return False

    async def catch_up(self, now: str) -> int:
        """Count the ended games a stop left uncounted (it came between the end and the count);
        returns how many were looked at."""
        done = 0
        while ids := await self.store.unrecorded():
            for session_id in ids:
                await self.record(session_id, now)
            done += len(ids)
        return done

    async def stats(self, user_id: int, guild_id: int | None) -> dict[str, dict[str, Any]]:
        """Per ``"<scope>:<game>"`` (scope ``global`` or ``server``): games, wins, abandoned
        games and the average score of the games played to the end."""
        scopes = [EVERYWHERE] + ([guild_id] if guild_id else [])
        out: dict[str, dict[str, Any]] = {}
        for row in await self.store.of_player(user_id, scopes):
            scope = "global" if row.scope == EVERYWHERE else "server"
            out[f"{scope}:{row.game_id}"] = {
                "games": row.games, "wins": row.wins, "abandoned": row.abandoned,
                "average": round(row.points / row.scored, 1) if row.scored else 0,
                "rating": row.rating, "rated": row.rated,
            }
        return out

    async def leaderboard(self, game_id: str, guild_id: int | None,
                          limit: int = 10) -> list[tuple[int, float, int]]:
        """(user, rating, rated games) best first, in one server (``guild_id``) or over all
        servers (None); players with fewer than RANKED_AFTER rated games are not listed."""
        return await self.store.leaderboard(game_id, guild_id or EVERYWHERE, RANKED_AFTER, limit)
