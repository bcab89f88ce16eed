"""The stand-in's waits: a waiter that names its channels is woken by a change there (a
message posted, edited or deleted, an interaction made there answered, followed up or its
original edited) and not by changes elsewhere, so at 200 games a change re-checks a table's
own waiters only (bench/bench_load.py measures the bot, not the players); a waiter that names
none is woken by every change, as before. Plain HTTP against the stand-in, no bot.

The periodic re-check is pushed out of reach: every wake-up seen here came from a notify."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tests.standin.server import APP_COMMAND, COMPONENT, Discord


async def call(http, server, method: str, path: str, body=None) -> int:
    async with http.request(method, f"{server.base_url}/api/v10{path}", json=body) as answer:
        return answer.status


class Watched:
    """A predicate that counts its checks and is true once ``ready`` is."""

    def __init__(self, ready: Callable[[], Any]) -> None:
        self.ready = ready
        self.checks = 0

    def __call__(self) -> Any:
        self.checks += 1
        return self.ready()


async def settle() -> None:
    """Long enough for a woken waiter to run its check (the request answered already: the
    stand-in notifies before it answers)."""
    await asyncio.sleep(0.05)


async def waiting(server: Discord, predicate: Watched, **kwargs: Any) -> asyncio.Task:
    task = asyncio.ensure_future(server.wait_for(predicate, 10, "the test's change", **kwargs))
    await settle()
    assert predicate.checks == 1 and not task.done()  # checked once on entry, then asleep
    return task


async def woken_by_its_channel_only(http, server: Discord, watched: Watched, channels: Any,
                                    method: str, status: int, elsewhere: tuple[str, Any],
                                    own: tuple[str, Any]) -> None:
    """A waiter of ``channels``: the request ``elsewhere`` (path, body) does not even re-check
    it, the request ``own`` wakes it; both answered ``status``."""
    keyed = await waiting(server, watched, channels=channels)
    assert await call(http, server, method, *elsewhere) == status
    await settle()
    assert watched.checks == 1
    assert await call(http, server, method, *own) == status
    await settle()
    assert keyed.done()


async def test_a_keyed_waiter_wakes_for_its_channel_only_and_an_unkeyed_one_for_all(api):
    server, http = api
    server.recheck_every = 60.0
    mine, other = server.text_channels[0], server.add_channel("other")
    posted_in_mine = Watched(lambda: server.channel_messages(mine))
    keyed = await waiting(server, posted_in_mine, channels=(mine,))
    anything = Watched(lambda: server.calls_to("GET /channels/{channel_id}"))
    unkeyed = await waiting(server, anything)

    assert await call(http, server, "POST", f"/channels/{other}/messages", {"content": "x"}) == 200
    await settle()
    assert posted_in_mine.checks == 1 and not keyed.done()  # not even re-checked
    assert anything.checks == 2 and not unkeyed.done()

    assert await call(http, server, "GET", f"/channels/{other}", None) == 200  # a read
    await settle()
    assert posted_in_mine.checks == 1 and anything.checks == 3 and unkeyed.done()

    assert await call(http, server, "POST", f"/channels/{mine}/messages", {"content": "y"}) == 200
    await settle()
    assert keyed.done() and posted_in_mine.checks == 2
    assert [m.content for m in keyed.result()] == ["y"]
    # no waiter left behind: a finished wait is not woken any more
    assert not server._everything and not server._of_channel


async def test_edits_and_deletes_wake_the_channels_waiters(api):
    server, http = api
    server.recheck_every = 60.0
    mine, other = server.text_channels[0], server.add_channel("other")
    for channel in (mine, other):
        assert await call(http, server, "POST", f"/channels/{channel}/messages",
                          {"content": "board"}) == 200
    [board] = server.channel_messages(mine)
    [elsewhere] = server.channel_messages(other)
    edit = {"content": "edited"}
    await woken_by_its_channel_only(
        http, server, Watched(lambda: board.content == "edited"), (mine,), "PATCH", 200,
        (f"/channels/{other}/messages/{elsewhere.id}", edit),
        (f"/channels/{mine}/messages/{board.id}", edit))
    await woken_by_its_channel_only(
        http, server, Watched(lambda: not server.channel_messages(mine)), (mine,), "DELETE", 204,
        (f"/channels/{other}/messages/{elsewhere.id}", None),
        (f"/channels/{mine}/messages/{board.id}", None))


async def test_interaction_answers_wake_the_waiters_of_the_interactions_channel(api):
    """Callbacks, follow-ups, @original edits and deletes name no channel in their path: the
    interaction's channel is woken, a DM's included (a click on a private hand), and no other."""
    server, http = api
    server.recheck_every = 60.0
    table, other = server.text_channels[0], server.add_channel("other")
    user = server.add_user("Ala")
    dm = server.dm_channel(user)
    assert await call(http, server, "POST", f"/channels/{dm}/messages", {"content": "hand"}) == 200
    [hand] = server.dms(user)
    click = await server.send_interaction(user, dm, COMPONENT, {"custom_id": "x",
                                                                "component_type": 2}, hand)
    elsewhere = await server.send_interaction(user, other, APP_COMMAND, {"name": "game"})

    # a waiter of the table and of the click's DM, as Table.wait_acknowledged waits
    await woken_by_its_channel_only(
        http, server, Watched(lambda: click.acked_at), {table, dm}, "POST", 200,
        (f"/interactions/{elsewhere.id}/{elsewhere.token}/callback",
         {"type": 5, "data": {"flags": 64}}),
        (f"/interactions/{click.id}/{click.token}/callback", {"type": 6}))
    await woken_by_its_channel_only(
        http, server, Watched(lambda: click.followups), (dm,), "POST", 200,
        (f"/webhooks/{server.app_id}/{elsewhere.token}", {"content": "not yours"}),
        (f"/webhooks/{server.app_id}/{click.token}", {"content": "refused", "flags": 64}))
    original = "/messages/@original"
    await woken_by_its_channel_only(
        http, server, Watched(lambda: hand.content == "moved on"), (dm,), "PATCH", 200,
        (f"/webhooks/{server.app_id}/{elsewhere.token}{original}", {"content": "moved on"}),
        (f"/webhooks/{server.app_id}/{click.token}{original}", {"content": "moved on"}))

    [followup] = click.followups
    deleted = Watched(lambda: server.messages[followup].deleted)
    keyed = await waiting(server, deleted, channels=(dm,))
    assert await call(http, server, "DELETE",
                      f"/webhooks/{server.app_id}/{click.token}/messages/{followup}") == 204
    await settle()
    assert keyed.done()


async def test_a_write_answered_with_an_injected_500_still_wakes_its_channel(api):
    """A fault that does the work and then answers 500 (Discord did it, the bot never heard)
    changed the channel: its waiters are woken as for any answer."""
    server, http = api
    server.recheck_every = 60.0
    channel = server.text_channels[0]
    server.faults.server_error("POST /channels/*/messages", after_write=True)
    posted = Watched(lambda: server.channel_messages(channel))
    keyed = await waiting(server, posted, channels=(channel,))
    assert await call(http, server, "POST", f"/channels/{channel}/messages", {"content": "x"}) == 500
    await settle()
    assert keyed.done()
