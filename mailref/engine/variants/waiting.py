"""Requests past the day's allowance (SPEC §2.2): mail that asks its reader to act (an alert
to the GM, a question for a judge) and would take the game's mail to one address past
`mails_per_player_day` a UTC day waits, and goes in one mail, "N requests wait for you", at
the reader's next digest or the turn of the day, whichever comes first. Kept in the state, so
that replay holds and folds the same."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from mailref.engine.context import Ctx, Outgoing
from mailref.engine.state import GameState, Player
from mailref.engine.variants.digests import next_digest
from mailref.timeutil import iso, parse_iso

# Mail to a player that asks the player to act; past the allowance it waits.
REQUEST_KINDS = frozenset({"alert", "judge"})


def waiting_of(state: GameState, p: Player | None) -> dict[str, Any] | None:
    """What waits for P (None: the GM): {"due", "items"}, or None."""
    return state.get("gm_waiting") if p is None else p.get("waiting")


def item_of(out: Outgoing, ctx: Ctx) -> dict[str, Any]:
    """OUT as a waiting request: when, its subject, its lines (none naming the seed, which
    replay cannot know), how to act on it, and what it is about (a request replaced in its
    place updates it)."""
    lines = [line for line in out.vars.get("lines") or [] if line not in ctx.seed_lines]
    act = str(out.vars.get("act") or "")
    if (j := out.vars.get("judgement")) is not None:
        lines = [f"Question from {j['by']}: {j['question']}"]
        act = act or f'Send a mail with the subject "[Ruling] {j["number"]}" and your ruling.'
    item = {"at": iso(ctx.now), "subject": out.subject, "lines": lines, "act": act}
    if about := out.vars.get("about"):
        item["about"] = str(about)
    return item


def alert_item(about: str, line: str, ctx: Ctx) -> dict[str, Any]:
    """An alert of the action (Ctx.alert) as a waiting request."""
    return {"at": iso(ctx.now), "subject": f"Alert: {about}", "lines": [line], "act": ""}


def due_after(state: GameState, p: Player | None, zone: str, now: datetime) -> datetime:
    """When what waits for P goes: the turn of the UTC day, or P's digest (the GM's for
    None) if that comes first."""
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    if p is None:
        digest = parse_iso(state["digest_next"])
    else:
        digest = parse_iso(p.get("digest_next")) or next_digest(state["parameters"], zone, now)
    return min(midnight, digest) if digest and digest > now else midnight


def hold(
    state: GameState, p: Player | None, item: dict[str, Any], zone: str, now: datetime
) -> None:
    """Keep ITEM waiting for P (None: the GM); one about the same thing takes its place."""
    waiting = waiting_of(state, p)
    if waiting is None:
        waiting = {"due": iso(due_after(state, p, zone, now)), "items": []}
        if p is None:
            state["gm_waiting"] = waiting
        else:
            p["waiting"] = waiting
    items: list[dict[str, Any]] = waiting["items"]
    about = item.get("about")
    for i, old in enumerate(items):
        if about and old.get("about") == about:
            items[i] = item
            return
    items.append(item)


def refresh(state: GameState, p: Player | None, out: Outgoing, ctx: Ctx) -> bool:
    """OUT replaces a request of the same `about` that waits for P: True where one did."""
    waiting, about = waiting_of(state, p), out.vars.get("about")
    if waiting is None or not about:
        return False
    if not any(old.get("about") == about for old in waiting["items"]):
        return False
    hold(state, p, item_of(out, ctx), "UTC", ctx.now)
    return True


def times(state: GameState) -> list[datetime]:
    """When a fold of waiting requests is due: the game is woken then."""
    holders = [state.get("gm_waiting"), *(p.get("waiting") for p in state["players"])]
    return [at for w in holders if w and (at := parse_iso(w["due"]))]


def send_due(state: GameState, ctx: Ctx) -> None:
    """Each fold whose time has come, in one mail to its reader."""
    gm = state.get("gm_waiting")
    if gm and (at := parse_iso(gm["due"])) and at <= ctx.now:
        del state["gm_waiting"]
        fold(state, ctx, "gm", gm["items"])
    for p in state["players"]:
        w = p.get("waiting")
        if w and (at := parse_iso(w["due"])) and at <= ctx.now:
            del p["waiting"]
            if p["status"] != "left":
                fold(state, ctx, [p["name"]], w["items"])


def fold(state: GameState, ctx: Ctx, to: str | list[str], items: list[dict[str, Any]]) -> None:
    n = len(items)
    ctx.send(
        "digest",
        to,
        f"{n} request{'s' if n != 1 else ''} wait{'' if n != 1 else 's'} for you",
        "requests_waiting.txt",
        game=state,
        items=items,
    )
