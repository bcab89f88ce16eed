"""The stand-in enforces Discord's global rate limit (issue 11, item 2): 50 requests a second per
bot token over every route but the interaction endpoints, answered past it with Discord's
global 429; a request sent while that 429 holds is recorded as a violation. Plain HTTP against
the stand-in, no bot."""

from __future__ import annotations

import asyncio
import math
import time

import aiohttp

from tests.standin.server import APP_COMMAND, GLOBAL_REACTION


async def post(http, server, path: str, body) -> aiohttp.ClientResponse:
    async with http.post(f"{server.base_url}/api/v10{path}", json=body) as answer:
        await answer.read()
        return answer


async def test_a_burst_of_channel_calls_is_refused_globally_past_fifty(api):
    server, http = api
    server.global_window = 3.0  # longer than the test's steps take, so the 429 surely holds
    channel = server.text_channels[0]
    answers = [await post(http, server, f"/channels/{channel}/messages", {"content": f"{n}"})
               for n in range(60)]
    assert [a.status for a in answers[:50]] == [200] * 50
    refused = answers[50:]
    assert {a.status for a in refused} == {429}
    last = refused[-1]
    body = await last.json()
    assert body["global"] is True and body["code"] == 0
    assert body["message"] == "You are being rate limited."
    assert 0 < body["retry_after"] <= 3.0
    assert last.headers["X-RateLimit-Global"] == "true"
    assert last.headers["X-RateLimit-Scope"] == "global"
    assert last.headers["Retry-After"] == str(math.ceil(body["retry_after"]))
    assert len(server.channel_messages(channel)) == 50  # a refused post made nothing
    # the ten refused ones came right after the first 429 (on their way): no violation yet...
    assert server.violations == []
    # ...but a bot that keeps sending while the 429 holds breaks Discord's rule
    await asyncio.sleep(GLOBAL_REACTION + 0.01)
    answer = await post(http, server, f"/channels/{channel}/messages", {"content": "too early"})
    assert answer.status == 429
    assert any("global retry_after" in v for v in server.violations)
    # once the first call has left the window, calls are served again
    await asyncio.sleep(server.calls[0].t + server.global_window - time.monotonic() + 0.05)
    server.violations.clear()
    answer = await post(http, server, f"/channels/{channel}/messages", {"content": "later"})
    assert answer.status == 200 and server.violations == []


async def test_interaction_endpoints_are_never_globally_limited(api):
    server, http = api
    server.global_limit = 5  # lowered: a handful of channel calls fill it
    channel = server.text_channels[0]
    user = server.add_user("Ala")
    for n in range(5):
        assert (await post(http, server, f"/channels/{channel}/messages", {"content": f"{n}"})).status == 200
    assert (await post(http, server, f"/channels/{channel}/messages", {"content": "x"})).status == 429
    # while the channel is refused, callbacks, follow-ups and @original edits all go through
    for n in range(20):
        command = await server.send_interaction(user, channel, APP_COMMAND, {"name": "game"})
        assert (await post(http, server, f"/interactions/{command.id}/{command.token}/callback",
                           {"type": 5})).status == 200
        assert (await post(http, server, f"/webhooks/{server.app_id}/{command.token}",
                           {"content": f"follow-up {n}"})).status == 200
        async with http.patch(f"{server.base_url}/api/v10/webhooks/{server.app_id}/"
                              f"{command.token}/messages/@original",
                              json={"content": f"edited {n}"}) as answer:
            assert answer.status == 200
    exempt = [c for c in server.calls if not c.globally_limited]
    assert len(exempt) == 60 and all(c.status == 200 for c in exempt)
    assert server.violations == []


async def test_the_limit_can_be_turned_off(api):
    server, http = api
    server.global_limit = None
    channel = server.text_channels[0]
    statuses = {(await post(http, server, f"/channels/{channel}/messages", {"content": f"{n}"})).status
                for n in range(70)}
    assert statuses == {200}
