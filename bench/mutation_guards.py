"""Mutation check of the guards (issue 27, item 4): every line that keeps hidden information
off public paths, a right to its holder, a stale click or forged id harmless, or a failing DM
quiet, is removed or weakened one at a time, and the tests that guard it must fail.

    python bench/mutation_guards.py            # every mutant
    python bench/mutation_guards.py --only dm  # the mutants whose name contains "dm"
    python bench/mutation_guards.py --list     # what is checked, without running

The repository is copied once to a temporary folder (the working tree is never touched); each
mutant rewrites one file of the copy (its original text must occur exactly once), runs its
tests there, and puts the file back. The tests first run unmutated (they must pass, else a
"killed" would mean nothing). Prints killed/survived per mutant and the score; exits 1 if any
mutant survived. Record the score in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: seconds a mutant's tests may take; a mutant that hangs them is reported, not counted killed
TIMEOUT = 600
#: pytest's exit codes for failing tests (1) and for a collection that failed (2): a kill;
#: 0 is a survivor, anything else (no tests, a usage error) an error of the check itself
KILLED = (1, 2)

G = "tests/host/test_guards.py"


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    original: str
    mutated: str
    tests: tuple[str, ...]


MUTANTS = [
    # --- hidden information on public paths ---------------------------------------------------
    Mutant("replay: private events in the move log", "session/replay.py",
           'for e in events if "private_to" not in e]',
           "for e in events]",
           (f"{G}::test_the_replay_log_shows_no_hand_and_no_hidden_move",)),
    Mutant("replay: a 'played' line for hidden moves", "session/replay.py",
           "if not game.meta.hidden_information and not says_the_move(events, seat):",
           "if not says_the_move(events, seat):",
           (f"{G}::test_a_hidden_move_the_engine_keeps_quiet_is_never_named",)),
    Mutant("/game log: private events", "session/history.py",
           "out.append((action.seat, notices + event_notices(events)))",
           'out.append((action.seat, notices + [Notice(e["key"], {k: v for k, v in e.items()'
           ' if k != "key"}) for e in events]))',
           (f"{G}::test_game_log_shows_no_hand_and_no_hidden_move",)),
    Mutant("/game log: a 'played' line for hidden moves", "session/history.py",
           "if not game.meta.hidden_information and not says_the_move(events, action.seat):",
           "if not says_the_move(events, action.seat):",
           (f"{G}::test_a_hidden_move_the_engine_keeps_quiet_is_never_named",)),
    Mutant("board news: private events (event_notices)", "session/values.py",
           'for e in events if "private_to" not in e]',
           "for e in events]",
           (f"{G}::test_game_log_shows_no_hand_and_no_hidden_move",)),
    Mutant("board news: a 'played' line for hidden moves", "session/service.py",
           "if not game.meta.hidden_information and not says_the_move(events, seat):",
           "if not says_the_move(events, seat):",
           (f"{G}::test_a_hidden_move_the_engine_keeps_quiet_is_never_named",)),
    Mutant("board: the choices inline on a hidden game's public board", "session/present.py",
           "if game.meta.hidden_information or len(to_act) != 1:",
           "if len(to_act) != 1:",
           (f"{G}::test_a_hidden_games_public_board_shows_no_seats_view_and_no_choices",)),
    Mutant("board: a seat's view drawn as the public board", "session/present.py",
           "view = game.view(state, None) if public is None else public",
           "view = game.view(state, 0) if public is None else public",
           (f"{G}::test_a_hidden_games_public_board_shows_no_seats_view_and_no_choices",)),
    Mutant("board: a seat's view as the outcome's public view", "session/service.py",
           "outcome.public = game.view(state, None)",
           "outcome.public = game.view(state, 0)",
           (f"{G}::test_a_hidden_games_public_board_shows_no_seats_view_and_no_choices",)),
    # --- rights: the creator, channel and server managers, players ----------------------------
    Mutant("/game addbot: creator only", "cogs/game.py",
           "if row.creator_id != user.id:",
           "if False:",
           (f"{G}::test_only_the_creator_adds_computer_players",)),
    Mutant("/game start: creator only", "session/service.py",
           "if user_id != row.creator_id:\n",
           "if False:\n",
           ("tests/host/test_sessions.py", "tests/host/test_cogs.py")),
    Mutant("/game abandon (cog): creator or channel manager", "cogs/game.py",
           "if interaction.user.id != row.creator_id and not can_manage(interaction):",
           "if False:",
           ("tests/host/test_cogs.py",)),
    Mutant("abandon (session): creator or channel manager", "session/ending.py",
           "if user_id != row.creator_id and not can_manage:",
           "if False:",
           ("tests/host/test_cogs.py", "tests/host/test_ending.py", "tests/host/test_sessions.py")),
    Mutant("/game admin end: channel managers only", "cogs/game.py",
           "            if not can_manage(interaction):\n",
           "            if False:\n",
           ("tests/host/test_cogs.py",)),
    Mutant("can_manage: Manage Channels", "cogs/game.py",
           "return bool(perms and perms.manage_channels)",
           "return True",
           ("tests/host/test_cogs.py",)),
    Mutant("/game settings server: server managers only", "cogs/game.py",
           "if interaction.guild_id is None or not (perms and perms.manage_guild):",
           "if interaction.guild_id is None:",
           ("tests/host/test_nudges.py", "tests/host/test_cogs.py", "tests/host/test_profile.py")),
    Mutant("replay: a DM game for its players only", "cogs/access.py",
           "    if row.guild_id is None:\n",
           "    if False:\n",
           ("tests/host/test_replay.py::test_a_game_in_direct_messages_is_replayed_by_its_players_only",)),
    # (View Channel alone is no mutant to list: discord.py's permissions_for already drops
    # every channel permission, Read Message History too, of a member who cannot view it)
    Mutant("replay: the channel's permissions at all", "cogs/access.py",
           "if not (allowed.view_channel and allowed.read_message_history):",
           "if False:",
           ("tests/host/test_replay.py::test_replay_by_number_follows_the_view_permission_of_the_games_channel",)),
    Mutant("replay: a channel gone counts as hidden", "cogs/access.py",
           "        allowed = discord.Permissions.none()",
           "        allowed = discord.Permissions.all()",
           ("tests/host/test_replay.py::test_replay_by_number_follows_the_view_permission_of_the_games_channel",)),
    Mutant("replay: the channel's Read Message History", "cogs/access.py",
           "if not (allowed.view_channel and allowed.read_message_history):",
           "if not allowed.view_channel:",
           ("tests/host/test_replay.py::test_replay_by_number_follows_the_view_permission_of_the_games_channel",)),
    Mutant("replay: another server's game", "cogs/access.py",
           "if row.guild_id != interaction.guild_id:",
           "if False:",
           ("tests/host/test_replay.py::test_replay_of_a_finished_game_by_number",)),
    Mutant("undo: only one's own last move", "session/undo.py",
           'if not log_ or log_[-1].seat != seat or log_[-1].kind != "move":',
           "if not log_:",
           ("tests/host/test_undo.py",)),
    Mutant("undo: never across a reveal", "session/undo.py",
           "if last.reveals:",
           "if False:",
           ("tests/host/test_undo.py",)),
    Mutant("vote: only those who vote on it", "session/absence.py",
           "if user_id not in voters:",
           "if False:",
           ("tests/host/test_absence.py", "tests/host/test_ending.py")),
    Mutant("act: only a seated player", "session/service.py",
           '            raise SessionError("error.not_a_player", "you are not playing in this game")',
           "            return 0",
           ("tests/host/test_sessions.py", "tests/host/test_cogs.py")),
    # --- stale clicks: the version a button carries, the version-guarded write ----------------
    Mutant("stale: an older button's version", "session/service.py",
           "if version is None or version == row.version:",
           "if True:",
           ("tests/host/test_sessions.py",)),
    Mutant("stale: this seat acted since the button", "session/service.py",
           "if changed and action.seat == seat:",
           "if False:",
           ("tests/host/test_sessions.py", "tests/host/test_live_board.py",
            "tests/host/test_kingdomino_cogs.py")),
    Mutant("stale: the seat's choices changed since the button", "session/service.py",
           "if game.legal_actions(then, seat) != game.legal_actions(await self.state(row), seat):",
           "if False:",
           (f"{G}::test_a_button_another_seat_was_offered_is_stale_for_the_next_player",)),
    Mutant("stale: the abandon confirmation's version", "session/ending.py",
           "if version is not None and version != row.version:",
           "if False:",
           ("tests/host/test_cogs.py", "tests/host/test_ending.py")),
    Mutant("stale: the version-guarded write of a move", "db/store.py",
           "\" WHERE id = ? AND version = ? AND status = 'active'\",\n"
           "                 (state_json, version + 1, now, now, finished,",
           "\" WHERE id = ? AND (version = ? OR 1 = 1) AND status = 'active'\",\n"
           "                 (state_json, version + 1, now, now, finished,",
           ("tests/host/test_db.py", "tests/host/test_multiprocess.py")),
    # --- DMs: refusal memory, the pause after a failure, told once -----------------------------
    Mutant("DM: a failing DM is told once", "cogs/hands.py",
           "untold = [u for u in failed if (row.id, u) not in self._dm_told]",
           "untold = failed",
           (f"{G}::test_dms_that_fail_again_after_the_pause_are_still_told_once",
            f"{G}::test_refused_dms_are_remembered_then_tried_again_and_still_told_once")),
    Mutant("DM: a refusal (50007) is remembered", "cogs/hands.py",
           "                    await self.sessions.dm_refused(user_id)\n",
           "                    pass\n",
           ("tests/host/test_cogs.py::test_closed_dms_fall_back_to_the_channel_button_without_blind_retries",
            f"{G}::test_refused_dms_are_remembered_then_tried_again_and_still_told_once")),
    Mutant("DM: a remembered refusal is not retried", "cogs/hands.py",
           "if not await self.sessions.may_dm(user_id) \\",
           "if False \\",
           ("tests/host/test_cogs.py::test_closed_dms_fall_back_to_the_channel_button_without_blind_retries",)),
    Mutant("DM: the refusal memory expires only when due", "session/service.py",
           "return until is None or until <= self.now()",
           "return True",
           ("tests/host/test_cogs.py::test_closed_dms_fall_back_to_the_channel_button_without_blind_retries",)),
    Mutant("DM: a 5xx pauses the user's DMs", "cogs/hands.py",
           "or self._dm_down.get(user_id, 0.0) > time.monotonic():",
           "or False:",
           (f"{G}::test_dms_discord_failed_are_paused_for_that_user",)),
    # --- forged component ids ------------------------------------------------------------------
    Mutant("ids: a session id beyond the database's integers", "session/ids.py",
           '    if not match or int(match["sid"]) > MAX_ID:\n',
           "    if not match:\n",
           (f"{G}::test_forged_component_ids_parse_to_nothing",)),
    Mutant("ids: only real ballots", "session/ids.py",
           'if tag == "v:" and _VOTE.fullmatch(payload):',
           'if tag == "v:":',
           (f"{G}::test_forged_component_ids_parse_to_nothing",)),
    Mutant("ids: a version in ASCII digits", "session/ids.py",
           "if not (text.isascii() and text.isdigit()) or int(text) > MAX_ID:",
           "if not text.isdigit() or int(text) > MAX_ID:",
           (f"{G}::test_forged_component_ids_parse_to_nothing",)),
    Mutant("ids: a version within the database's integers", "session/ids.py",
           "if not (text.isascii() and text.isdigit()) or int(text) > MAX_ID:",
           "if not (text.isascii() and text.isdigit()):",
           (f"{G}::test_forged_component_ids_parse_to_nothing",)),
    Mutant("ids: only known kinds", "session/ids.py",
           "if not (sep and sep2 and kind in _KINDS) or version is None:",
           "if not (sep and sep2 and kind) or version is None:",
           (f"{G}::test_forged_component_ids_parse_to_nothing",)),
    Mutant("action codes: printable ASCII only", "session/service.py",
           "if not code or len(code) > MAX_ACTION_CODE or not (code.isascii() and code.isprintable()):",
           "if not code or len(code) > MAX_ACTION_CODE:",
           ("tests/host/test_inputs.py",)),
]


def copy_repository(into: Path) -> Path:
    target = into / "repo"
    shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", "*.sqlite3*",
        "demo_out"))
    return target


def run_tests(repo: Path, tests: tuple[str, ...]) -> tuple[int, float]:
    started = time.monotonic()
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                               *tests], cwd=repo, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)
        code = done.returncode
    except subprocess.TimeoutExpired:
        code = -1
    return code, time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="mutants whose name contains this")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if args.only.lower() in m.name.lower()]
    if args.list:
        for m in chosen:
            print(f"{m.name}\n  {m.path}: {m.original.strip()!r}\n    -> {m.mutated.strip()!r}"
                  f"\n  tests: {' '.join(m.tests)}")
        return 0
    with tempfile.TemporaryDirectory(prefix="stolik-mutants-") as tmp:
        repo = copy_repository(Path(tmp))
        for m in chosen:  # every mutant applies to the code as it is
            count = (repo / m.path).read_text(encoding="utf-8").count(m.original)
            if count != 1:
                print(f"ERROR {m.name}: its original occurs {count} times in {m.path}")
                return 2
        baseline = sorted({t for m in chosen for t in m.tests})
        code, took = run_tests(repo, tuple(baseline))
        if code != 0:
            print(f"ERROR: the tests fail without any mutant (exit {code}); fix them first")
            return 2
        print(f"baseline: {len(baseline)} test selections pass ({took:.0f} s)")
        survived = []
        for m in chosen:
            path = repo / m.path
            source = path.read_text(encoding="utf-8")
            mutated = source.replace(m.original, m.mutated)
            compile(mutated, m.path, "exec")  # a mutant that does not compile proves nothing
            path.write_text(mutated, encoding="utf-8")
            try:
                code, took = run_tests(repo, m.tests)
            finally:
                path.write_text(source, encoding="utf-8")
            verdict = ("killed" if code in KILLED else "SURVIVED" if code == 0
                       else "TIMEOUT" if code == -1 else f"ERROR({code})")
            if verdict != "killed":
                survived.append(m.name)
            print(f"{verdict:8} {took:5.0f} s  {m.path}: {m.name}", flush=True)
    killed = len(chosen) - len(survived)
    print(f"score: {killed}/{len(chosen)} guard mutants killed")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
