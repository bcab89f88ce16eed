"""The stand-in answers like Discord where the bot depends on it (issue 14, item 7): request
bodies checked against the official OpenAPI spec, Discord's error body, its documented limits,
nonces and the interaction token's lifetime. Plain HTTP against the stand-in, no bot."""

from __future__ import annotations

import json
import time

import aiohttp
from jsonschema import Draft202012Validator

from tests.standin import spec
from tests.standin.server import APP_COMMAND, AUTOCOMPLETE_REQUEST, COMPONENT


async def call(http, server, method: str, path: str, body) -> tuple[int, dict]:
    async with http.request(method, f"{server.base_url}/api/v10{path}", json=body) as answer:
        return answer.status, (await answer.json() if answer.status != 204 else {})


def assert_discord_error(body: dict) -> None:
    """Shaped as the spec's ErrorResponse: code, message, and errors nested with _errors."""
    schema = {"$ref": "#/components/schemas/ErrorResponse", **spec.document()}
    assert not list(Draft202012Validator(schema).iter_errors(body))
    assert body["code"] == 50035 and isinstance(body["errors"], dict)


async def test_a_message_breaking_the_spec_gets_discords_nested_error(api):
    server, http = api
    channel = server.text_channels[0]
    button = {"type": 2, "style": 1, "label": "x", "custom_id": "c" * 101}
    status, body = await call(http, server, "POST", f"/channels/{channel}/messages",
                              {"content": "hi", "components": [{"type": 1, "components": [button]}]})
    assert status == 400
    assert_discord_error(body)
    [error] = body["errors"]["components"]["0"]["components"]["0"]["custom_id"]["_errors"]
    assert error["message"] == "Must be 100 or fewer in length."
    # Discord's documented 2000 characters (the spec allows 4000)
    status, body = await call(http, server, "POST", f"/channels/{channel}/messages",
                              {"content": "x" * 2001})
    assert status == 400 and "content" in body["errors"]


async def test_command_definitions_are_checked(api):
    server, http = api
    bad = [{"name": "game", "description": "d" * 101, "type": 1}]
    status, body = await call(http, server, "PUT",
                              f"/applications/{server.app_id}/guilds/{server.guild_id}/commands", bad)
    assert status == 400 and "description" in body["errors"]["0"]
    assert_discord_error(body)


async def test_select_limits_and_nonces(api):
    server, http = api
    channel = server.text_channels[0]
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}],
              "max_values": 2}
    status, _ = await call(http, server, "POST", f"/channels/{channel}/messages",
                           {"content": "m", "components": [{"type": 1, "components": [select]}]})
    assert status == 400
    posts = [await call(http, server, "POST", f"/channels/{channel}/messages",
                        {"content": "board", "nonce": "b1v3", "enforce_nonce": True})
             for _ in range(2)]
    assert posts[0][0] == posts[1][0] == 200 and posts[0][1]["id"] == posts[1][1]["id"]
    status, listed = await call(http, server, "GET", f"/channels/{channel}/messages?limit=10", None)
    assert status == 200 and [m["id"] for m in listed] == [posts[0][1]["id"]]


async def test_autocomplete_values_over_100_and_expired_tokens_are_refused(api):
    server, http = api
    channel = server.text_channels[0]
    user = server.add_user("Ala")
    asked = await server.send_interaction(user, channel, AUTOCOMPLETE_REQUEST, {"name": "game"})
    status, body = await call(
        http, server, "POST", f"/interactions/{asked.id}/{asked.token}/callback",
        {"type": 8, "data": {"choices": [{"name": "n", "value": "v" * 101}]}})
    assert status == 400 and body["errors"]["data"]["choices"]["0"]["value"]["_errors"]

    server.token_lifetime = 0.2
    command = await server.send_interaction(user, channel, APP_COMMAND, {"name": "game"})
    status, _ = await call(http, server, "POST", f"/interactions/{command.id}/{command.token}/callback",
                           {"type": 5, "data": {"flags": 64}})
    assert status == 200
    time.sleep(0.3)
    status, body = await call(http, server, "POST", f"/webhooks/{server.app_id}/{command.token}",
                              {"content": "late"})
    assert (status, body["code"]) == (401, 50027)


async def test_an_update_answer_edits_the_clicked_message_as_discord_does(api):
    """Type 7 (UPDATE_MESSAGE) is for component interactions only and edits the message the
    component is on, public or ephemeral (which stays ephemeral); that message is then the
    interaction's original response (``@original``)."""
    server, http = api
    channel = server.text_channels[0]
    user = server.add_user("Ala")
    button = {"type": 2, "style": 1, "label": "Play", "custom_id": "sk:1:0:a:pick 1"}
    status, posted = await call(http, server, "POST", f"/channels/{channel}/messages",
                                {"content": "board", "components": [
                                    {"type": 1, "components": [button]}]})
    assert status == 200
    board = server.messages[int(posted["id"])]
    click = await server.send_interaction(user, channel, COMPONENT,
                                          {"custom_id": button["custom_id"], "component_type": 2},
                                          board)
    status, answered = await call(http, server, "POST",
                                  f"/interactions/{click.id}/{click.token}/callback",
                                  {"type": 7, "data": {"components": []}})
    assert status == 200 and answered["resource"]["message"]["id"] == posted["id"]
    assert board.components == [] and board.content == "board"  # only what was sent changed
    status, edited = await call(http, server, "PATCH",
                                f"/webhooks/{server.app_id}/{click.token}/messages/@original",
                                {"content": "board, later"})
    assert status == 200 and edited["id"] == posted["id"] and board.content == "board, later"

    # an ephemeral picker (a command's private reply) updated by a click on it stays private
    command = await server.send_interaction(user, channel, APP_COMMAND, {"name": "game"})
    status, _ = await call(http, server, "POST", f"/interactions/{command.id}/{command.token}/callback",
                           {"type": 4, "data": {"content": "pick", "flags": 64, "components": [
                               {"type": 1, "components": [button]}]}})
    picker = server.messages[command.original_id or 0]
    assert status == 200 and picker.ephemeral
    click = await server.send_interaction(user, channel, COMPONENT,
                                          {"custom_id": button["custom_id"], "component_type": 2},
                                          picker)
    status, _ = await call(http, server, "POST", f"/interactions/{click.id}/{click.token}/callback",
                           {"type": 7, "data": {"content": "done", "components": [],
                                                "attachments": []}})
    assert status == 200 and picker.ephemeral and picker.content == "done" and not picker.components
    # a command has no message to update: refused
    command = await server.send_interaction(user, channel, APP_COMMAND, {"name": "game"})
    status, _ = await call(http, server, "POST", f"/interactions/{command.id}/{command.token}/callback",
                           {"type": 7, "data": {"content": "x"}})
    assert status == 400 and command.acked_at is None


PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"\0" * 16


async def multipart(http, server, method: str, path: str, payload: dict) -> int:
    """A request with one file, as discord.py sends it (payload_json and files[0])."""
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    form.add_field("files[0]", PNG_BYTES, filename="board.png", content_type="image/png")
    async with http.request(method, f"{server.base_url}/api/v10{path}", data=form) as answer:
        return answer.status


async def test_alt_text_of_a_file_in_an_interaction_response_is_read(api):
    """What Discord shows: the alt text an interaction's response gives its file (under
    ``data.attachments``), and the text and alt text of an edited DM (issue 24, item 7)."""
    server, http = api
    channel = server.text_channels[0]
    user = server.add_user("Ala")
    asked = await server.send_interaction(user, channel, APP_COMMAND, {"name": "game"})
    status = await multipart(http, server, "POST",
                             f"/interactions/{asked.id}/{asked.token}/callback",
                             {"type": 4, "data": {"content": "board", "attachments": [
                                 {"id": 0, "description": "Ala's board"}]}})
    assert status in (200, 204)
    [attachment] = server.messages[asked.original_id or 0].attachments
    assert attachment.description == "Ala's board"
    dm = server.dm_channel(user)
    status, posted = await call(http, server, "POST", f"/channels/{dm}/messages",
                                {"content": "🎲 Your move"})
    assert status == 200
    status = await multipart(http, server, "PATCH", f"/channels/{dm}/messages/{posted['id']}",
                             {"content": "↪ moved on", "attachments": [
                                 {"id": 0, "description": "your hand"}]})
    assert status == 200
    [edited] = server.dms(user)
    assert edited.content == "↪ moved on" and edited.history[-1].content == "↪ moved on"
    assert [a.description for a in edited.attachments] == ["your hand"]
