"""The standings store: results and ratings kept per player, game and server (SQL only).

A game is counted once: its ``game_results`` row is inserted in the same transaction that adds
it to the players' rows, so a second attempt (another process, a restart's catch-up) finds the
row and does nothing. Counters are increments; a rating is read and written back guarded by
its ``rated`` count, so on a server that runs transactions side by side (PostgreSQL) two games
of the same player cannot overwrite each other: the later one sees the guard fail, rolls back
and is tried again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from db.database import Database

#: scope of the rows that add up every server
EVERYWHERE = 0


class RatingRace(Exception):
    """Another transaction rated one of the players meanwhile; try the game again."""


@dataclass
class EndedGame:
    session_id: int
    guild_id: int | None
    game_id: str
    status: str  # finished | abandoned
    result: dict[str, Any] | None
    ended_by: int | None
    humans: dict[int, int]  # seat -> user id (computer seats left out)


@dataclass
class PlayerResult:
    user_id: int
    place: int  # 0 = first; shared places share the number
    won: bool
    abandoned: bool
    points: int | None  # None: the game was not played to the end


@dataclass
class Rating:
    mu: float | None  # None: not rated yet
    sigma: float | None
    rated: int


@dataclass
class StandingRow:
    scope: int
    game_id: str
    games: int
    wins: int
    abandoned: int
    scored: int
    points: int
    rated: int
    rating: float | None


#: judges an ended game: the players' results, or None when it does not count
Judge = Callable[[EndedGame], list[PlayerResult] | None]
#: rates one game: (user, place, rating before) -> user -> (mu, sigma, rating)
Rate = Callable[[list[tuple[int, int, Rating]]], dict[int, tuple[float, float, float]]]


class StandingsStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(self, session_id: int, now: str, judge: Judge, rate: Rate) -> bool:
        """Count an ended game in its players' standings, in one transaction; False when it
        was counted before (or is not over). Raises :class:`RatingRace` to be retried."""
        async with self.db.transaction() as tx:
            row = await tx.fetchone(
                "SELECT id, guild_id, game_id, status, result, ended_by FROM sessions"
                " WHERE id = ? AND status IN ('finished', 'abandoned')", (session_id,))
            if row is None:
                return False
            seats = await tx.fetchall(
                "SELECT seat, user_id FROM seats WHERE session_id = ? AND user_id IS NOT NULL",
                (session_id,))
            game = EndedGame(row[0], row[1], row[2], row[3],
                             json.loads(row[4]) if row[4] else None, row[5],
                             {s[0]: s[1] for s in seats})
            results = judge(game)
            claimed = await tx.execute(
                "INSERT INTO game_results (session_id, counted, recorded_at) VALUES (?, ?, ?)"
                " ON CONFLICT (session_id) DO NOTHING",
                (session_id, int(results is not None), now))
            if claimed != 1 or results is None:
                return False
            # rows in one order (scope, then user) in every transaction: two games counted side
            # by side on PostgreSQL wait for each other instead of deadlocking
            results = sorted(results, key=lambda r: r.user_id)
            scopes = [EVERYWHERE] + ([game.guild_id] if game.guild_id else [])
            for scope in scopes:
                for r in results:
                    await tx.execute(
                        "INSERT INTO standings (user_id, scope, game_id, games, wins, abandoned,"
                        " scored, points) VALUES (?, ?, ?, 1, ?, ?, ?, ?)"
                        " ON CONFLICT (user_id, scope, game_id) DO UPDATE SET"
                        " games = standings.games + 1, wins = standings.wins + excluded.wins,"
                        " abandoned = standings.abandoned + excluded.abandoned,"
                        " scored = standings.scored + excluded.scored,"
                        " points = standings.points + excluded.points",
                        (r.user_id, scope, game.game_id, int(r.won), int(r.abandoned),
                         int(r.points is not None), r.points or 0))
                if len(results) < 2:
                    continue  # a rating measures people against people
                before = []
                for r in results:
                    mu, sigma, rated = await tx.fetchone(
                        "SELECT mu, sigma, rated FROM standings"
                        " WHERE user_id = ? AND scope = ? AND game_id = ?",
                        (r.user_id, scope, game.game_id))
                    before.append((r.user_id, r.place, Rating(mu, sigma, rated)))
                for user_id, (mu, sigma, rating) in rate(before).items():
                    rated = next(b[2].rated for b in before if b[0] == user_id)
                    changed = await tx.execute(
                        "UPDATE standings SET mu = ?, sigma = ?, rating = ?, rated = rated + 1"
                        " WHERE user_id = ? AND scope = ? AND game_id = ? AND rated = ?",
                        (mu, sigma, rating, user_id, scope, game.game_id, rated))
                    if changed != 1:
                        raise RatingRace(session_id)
        return True

    async def unrecorded(self, limit: int = 1000) -> list[int]:
        """Ended games not yet in the standings, oldest first (what a stop left behind)."""
        rows = await self.db.fetchall(
            "SELECT s.id FROM sessions s WHERE s.status IN ('finished', 'abandoned')"
            " AND NOT EXISTS (SELECT 1 FROM game_results g WHERE g.session_id = s.id)"
            " ORDER BY s.finished_at, s.id LIMIT ?", (limit,))
        return [r[0] for r in rows]

    async def of_player(self, user_id: int, scopes: list[int]) -> list[StandingRow]:
        marks = ", ".join("?" for _ in scopes)
        rows = await self.db.fetchall(
            "SELECT scope, game_id, games, wins, abandoned, scored, points, rated, rating"
            f" FROM standings WHERE user_id = ? AND scope IN ({marks}) ORDER BY scope, game_id",
            (user_id, *scopes))
        return [StandingRow(*r) for r in rows]

    async def leaderboard(self, game_id: str, scope: int, min_rated: int,
                          limit: int) -> list[tuple[int, float, int]]:
        """(user, rating, rated games), best first, among players with ``min_rated`` games."""
        rows = await self.db.fetchall(
            "SELECT user_id, rating, rated FROM standings"
            " WHERE scope = ? AND game_id = ? AND rated >= ? AND rating IS NOT NULL"
            " ORDER BY rating DESC, user_id DESC LIMIT ?", (scope, game_id, min_rated, limit))
        return [(r[0], r[1], r[2]) for r in rows]
