"""The one-click unsubscribe (RFC 8058, SPEC §4.3): a small HTTP endpoint the daemon runs where
`[web] listen` is set, behind the web server of the site. POST /unsubscribe/TOKEN with
`List-Unsubscribe=One-Click` switches the token's player to the daily digest through the door
(source "web"), never out of the game; GET shows a page with that button and changes nothing,
as link scanners GET every link of a mail. Its connections are bounded (web/bounds.py)."""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Callable
from html import escape
from typing import Any, cast

from aiohttp import web

from mailref.engine import Refused
from mailref.outgoing import UNSUBSCRIBE_KEY
from mailref.referee import Referee
from mailref.store.keys import secret
from mailref.web.bounds import (
    BODY_DEADLINE,
    HEADER_DEADLINE,
    BadRequests,
    Doors,
    QuietServerLog,
    peer,
    raise_file_limit,
)
from mailref.write.lists import unsubscribe_token

log = logging.getLogger("mailref.web")

# Runs a function of the referee's where the daemon does its other work (its work lock).
Run = Callable[..., Any]

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>
<body><h1>{title}</h1><p>{text}</p>{form}</body></html>
"""
_FORM = (
    '<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">'
    '<button type="submit">Send me the daily digest instead</button></form>'
)


def player_of(referee: Referee, token: str) -> tuple[str, str] | None:
    """The game and the player whose link TOKEN is, or None for a token nobody was given."""
    slug = token.rpartition(".")[0]
    try:
        state = referee.state(slug)
    except Refused:  # no such game
        return None
    with referee.store() as s, s.begin():
        key = secret(s, UNSUBSCRIBE_KEY)
    for p in state["players"]:
        if p["status"] != "left" and hmac.compare_digest(
            unsubscribe_token(key, slug, p["name"]).encode(), token.encode()
        ):
            return slug, p["name"]
    return None


def unsubscribe(referee: Referee, token: str) -> tuple[str, str] | None:
    """Switch the player of TOKEN to the daily digest (the mailto's `[Settings] digest`)."""
    found = player_of(referee, token)
    if found is None:
        return None
    slug, name = found
    p = next(p for p in referee.state(slug)["players"] if p["name"] == name)
    settings: dict[str, Any] = cast(dict[str, Any], p).get("settings") or {}
    if settings.get("digest") == "daily":
        return found  # a link used again (or replayed) changes nothing: nothing is journaled
    action = {"type": "settings", "player": name, "values": {"digest": "daily"}}
    referee.admin(slug, {**action, "unsubscribe": True}, name, via="web")
    return found


def page(title: str, text: str, form: bool = False, status: int = 200) -> web.Response:
    body = _PAGE.format(title=escape(title), text=escape(text), form=_FORM if form else "")
    return web.Response(text=body, status=status, content_type="text/html")


def app(
    referee: Referee,
    run: Run | None = None,
    doors: Doors | None = None,
    bad: BadRequests | None = None,
) -> web.Application:
    """The endpoint's routes over REFEREE; RUN runs its store work (default: a thread); DOORS
    are its bounded connections, BAD counts its bad requests."""
    bad = bad or BadRequests()

    async def call(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(run or (lambda f, *a: f(*a)), fn, *args)

    @web.middleware
    async def one_request(request: web.Request, handler: Callable[..., Any]) -> Any:
        """The header has come (its deadline is over); one request a connection, so that
        every request is under the header deadline."""
        door = doors.door_of(request.transport) if doors else None
        if door is not None:
            door.begun()
        response = await handler(request)
        response.force_close()
        return response

    async def show(request: web.Request) -> web.Response:
        found = await call(player_of, referee, request.match_info["token"])
        if found is None:
            bad.note("requests of links that belong to nobody", peer(request.transport))
            return page("Unknown link", "This unsubscribe link belongs to nobody.", status=404)
        text = (
            f"{found[1]}: one mail a day with the game's announcements instead of each one "
            "as it happens. You stay in the game."
        )
        return page(f"Daily digest for {found[0]}", text, form=True)

    async def post(request: web.Request) -> web.Response:
        try:
            form = await asyncio.wait_for(request.post(), BODY_DEADLINE)
        except TimeoutError:
            bad.note("bodies not sent in time", peer(request.transport))
            return web.Response(text="the body came too slowly\n", status=408)
        if form.get("List-Unsubscribe") != "One-Click":
            bad.note("POSTs without List-Unsubscribe=One-Click", peer(request.transport))
            return web.Response(text="expected List-Unsubscribe=One-Click\n", status=400)
        try:
            found = await call(unsubscribe, referee, request.match_info["token"])
        except Refused as e:
            return web.Response(text=f"{e.reason}\n", status=409)
        if found is None:
            bad.note("requests of links that belong to nobody", peer(request.transport))
            return web.Response(text="This unsubscribe link belongs to nobody.\n", status=404)
        log.info("one-click unsubscribe: %s in %s now on the daily digest", found[1], found[0])
        return web.Response(
            text=f"{found[1]} now gets one digest a day from {found[0]}, and stays in the game.\n"
        )

    application = web.Application(client_max_size=4096, middlewares=[one_request])
    application.router.add_get("/unsubscribe/{token}", show)
    application.router.add_post("/unsubscribe/{token}", post)
    return application


class Endpoint:
    """The endpoint serving: its aiohttp runner and its bounded socket."""

    def __init__(self, runner: web.AppRunner, server: asyncio.Server) -> None:
        self.runner, self.server = runner, server

    async def cleanup(self) -> None:
        self.server.close()
        await self.runner.cleanup()


SERVER_LOG = logging.getLogger("mailref.web.http")  # aiohttp's own lines, counted (bounds.py)


async def start(referee: Referee, listen: str, run: Run | None = None) -> Endpoint:
    """Serve the endpoint on LISTEN ("host:port"); the caller stops it with `cleanup()`."""
    host, _, port = listen.rpartition(":")
    raise_file_limit()
    bad = BadRequests()
    for f in list(SERVER_LOG.filters):
        SERVER_LOG.removeFilter(f)
    SERVER_LOG.addFilter(QuietServerLog(bad))
    doors = Doors(bad)
    runner = web.AppRunner(
        app(referee, run, doors, bad),
        access_log=None,
        logger=SERVER_LOG,
        keepalive_timeout=HEADER_DEADLINE,
    )
    await runner.setup()
    assert runner.server is not None
    doors.server = runner.server
    server = await asyncio.get_running_loop().create_server(doors, host.strip("[]"), int(port))
    log.info("one-click unsubscribe on http://%s/unsubscribe/", listen)
    return Endpoint(runner, server)
