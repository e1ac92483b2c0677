"""[Orders]: the bold sentences of the sender's own words; [Results]: the GM's turn results;
[Publish]: the GM sends the previewed results."""

import re

from mailref.engine import Refused
from mailref.engine.state import Action, OrdersAction
from mailref.handlers.registry import GameView, handles, not_only_attached, read_whole
from mailref.read import Envelope


@handles("orders")
def orders(env: Envelope, view: GameView) -> Action:
    read_whole(env, "orders")
    if (
        not env.orders
    ):  # words of one's own without bold (beside a signature's logo) are "no bold text"
        not_only_attached(env, "orders", env.text)
    check_named_turn(env, view)
    action: OrdersAction = {"type": "orders", "player": view.name, "sentences": env.orders}
    if loose := lines_not_bold(env.text, env.orders):
        action["loose"] = loose  # the engine tells the author which of them look like orders
    return action


def lines_not_bold(text: str, bold: list[str], most: int = 20) -> list[str]:
    """Up to MOST lines of TEXT (the sender's own words) that hold none of the BOLD sentences."""
    marks = re.compile(r"\[/?b\]|\*\*|__|\*", re.I)
    shown = [" ".join(marks.sub("", s).split()).lower() for s in bold]
    out = []
    for line in text.splitlines():
        if "*" in line or "__" in line or "[b]" in line.lower():
            continue  # a line with a bold mark is read through its bold
        t = " ".join(line.split())
        key = t.lower().strip(" .;!")
        if not key or len(t) > 200 or any(b and (b in key or key in b) for b in shown):
            continue
        out.append(t)
        if len(out) >= most:
            break
    return out


def check_named_turn(env: Envelope, view: GameView) -> None:
    """Orders that name a turn ("[Orders] turn 11", a Reply to "[Turn 11] Orders are due …")
    count for that turn only: late ones are refused, never taken as the next turn's orders, which
    in Eire cannot be changed ("You cannot edit your orders once you've sent the post")."""
    turn = view.state.get("turn") or {}
    now = turn.get("number")
    named = env.subject.number
    if named is None and (m := re.search(r"\bturn\s+(\d{1,6})\b", env.subject.rest, re.I)):
        named = int(m.group(1))
    if named is None or now is None or named == now:
        return
    if named < now:
        raise Refused("orders_for_past_turn", named=named, now=now)
    raise Refused("orders_for_future_turn", named=named, now=now)


@handles("results", players_only=False)
def results(env: Envelope, view: GameView) -> Action:
    read_whole(env, "results")
    if (env.from_addr or "").lower() == str(
        view.state.get("gm") or ""
    ).lower():  # others: "only the GM"
        not_only_attached(env, "results", env.text)
        check_turn_closed(view)
    return {
        "type": "results",
        "player": view.name,
        "address": env.from_addr or "",
        "title": env.subject.rest.strip()[:200],
        "text": env.text,
    }


@handles("publish", players_only=False)
def publish(env: Envelope, view: GameView) -> Action:
    """[Publish] from the GM: the results the GM is previewing go to every player (SPEC §5.4).
    A game made without a GM is run by the admin, whom its preview went to."""
    address = (env.from_addr or "").lower()
    if view.gm and address == view.gm.lower():
        return {"type": "publish", "address": address, "gm": True}
    return {"type": "publish", "address": env.from_addr or ""}


def check_turn_closed(view: GameView) -> None:
    """Results are for a turn that has closed (its deadline passed, or every player ordered:
    the GM then has "[Turn N] Orders of all players"). Results sent while the turn is still open
    for orders (the same results sent twice, a Reply to an older turn's digest, a slip) are
    refused, so that the players who have not ordered yet keep their turn, and the GM is told how
    to close a turn early. Checked here, not in the engine, so that a journal holding such results
    still replays."""
    turn, state = view.state.get("turn") or {}, view.state
    if (
        state.get("status") != "active"
        or not turn
        or turn.get("awaiting_results")
        or not turn.get("deadline")
    ):
        return
    names = [p["name"] for p in state.get("players", []) if p.get("status") == "active"]
    sent = sum(1 for n in names if n in (state.get("orders") or {}))
    done = [h["turn"] for h in state.get("history") or []]
    raise Refused(
        "results_while_open",
        done=done[-1] if done else None,
        turn=turn["number"],
        deadline=view.variant.deadlines.when(state, turn["deadline"]),
        sent=sent,
        players=len(names),
        slug=state.get("slug"),
    )
