"""The one-click unsubscribe (RFC 8058, SPEC §4.3): a small HTTP endpoint the daemon runs where
`[web] listen` is set, behind the web server of the site. POST /unsubscribe/TOKEN with
`List-Unsubscribe=One-Click` switches the token's player to the daily digest through the door
(source "web"), never out of the game; GET shows a page with that button and changes nothing,
as link scanners GET every link of a mail."""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Callable
from html import escape
from typing import Any

from aiohttp import web

from mailref.engine import Refused
from mailref.outgoing import UNSUBSCRIBE_KEY
from mailref.referee import Referee
from mailref.store.keys import secret
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
    action = {"type": "settings", "player": name, "values": {"digest": "daily"}}
    referee.admin(slug, {**action, "unsubscribe": True}, name, via="web")
    return found


def page(title: str, text: str, form: bool = False, status: int = 200) -> web.Response:
    body = _PAGE.format(title=escape(title), text=escape(text), form=_FORM if form else "")
    return web.Response(text=body, status=status, content_type="text/html")


def app(referee: Referee, run: Run | None = None) -> web.Application:
    """The endpoint's routes over REFEREE; RUN runs its store work (default: a thread)."""

    async def call(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(run or (lambda f, *a: f(*a)), fn, *args)

    async def show(request: web.Request) -> web.Response:
        found = await call(player_of, referee, request.match_info["token"])
        if found is None:
            return page("Unknown link", "This unsubscribe link belongs to nobody.", status=404)
        text = (
            f"{found[1]}: one mail a day with the game's announcements instead of each one "
            "as it happens. You stay in the game."
        )
        return page(f"Daily digest for {found[0]}", text, form=True)

    async def post(request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("List-Unsubscribe") != "One-Click":
            return web.Response(text="expected List-Unsubscribe=One-Click\n", status=400)
        try:
            found = await call(unsubscribe, referee, request.match_info["token"])
        except Refused as e:
            return web.Response(text=f"{e.reason}\n", status=409)
        if found is None:
            return web.Response(text="This unsubscribe link belongs to nobody.\n", status=404)
        log.info("one-click unsubscribe: %s in %s now on the daily digest", found[1], found[0])
        return web.Response(
            text=f"{found[1]} now gets one digest a day from {found[0]}, and stays in the game.\n"
        )

    application = web.Application(client_max_size=4096)
    application.router.add_get("/unsubscribe/{token}", show)
    application.router.add_post("/unsubscribe/{token}", post)
    return application


async def start(referee: Referee, listen: str, run: Run | None = None) -> web.AppRunner:
    """Serve the endpoint on LISTEN ("host:port"); the caller stops it with `cleanup()`."""
    host, _, port = listen.rpartition(":")
    runner = web.AppRunner(app(referee, run), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host.strip("[]"), int(port)).start()
    log.info("one-click unsubscribe on http://%s/unsubscribe/", listen)
    return runner
