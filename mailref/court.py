"""The door's part of an undo (SPEC §4.4): the entry that orders it is applied, then the
whole journal with it is replayed (engine/court.py), the game takes the replayed state and
its archived matters, and the players are told what changed and what no longer holds."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, cast

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from mailref.engine import matters
from mailref.engine.archive import merge
from mailref.engine.context import Ctx, Refused
from mailref.engine.court import MARK, Court, Entry
from mailref.engine.court_words import what_changed
from mailref.engine.replay import replay
from mailref.engine.state import Action, GameState, Matter
from mailref.engine.variants import get_variant
from mailref.store import ArchivedMatter, Game, JournalEntry
from mailref.store.archived import archived, journal


def rule(
    session: Session,
    game: Game,
    action: Action,
    ctx: Ctx,
    now: datetime,
    during: GameState,
    before: GameState,
) -> GameState:
    """Replay GAME's journal and ACTION (the entry about to be written, which ordered undos in
    CTX and made DURING of the live state BEFORE) from the start. Refuses (`Refused`) when a strict
    order names nothing or the action can no longer apply. Replaces the archived matters; tells
    the players; returns the hot state."""
    court = Court(live=True)
    cold: list[tuple[str, Matter]] = []
    # the store's JSON, in the shapes the engine declares for it
    entries = [*cast("list[Entry]", journal(session, game.id)), (action, now, list(ctx.draws))]
    try:
        state = replay(cast(GameState, game.initial), entries, cold, court=court)
    except RuntimeError as e:  # a journal an older mailref wrote that this one cannot replay
        raise Refused("journal_does_not_replay", why=e) from None
    old_cold = cast("list[tuple[str, Matter]]", archived(session, game.id))
    variant = get_variant(game.variant)
    changed = what_changed(
        merge(before, old_cold),
        merge(state, cold),
        merge(during, old_cold),
        "" if variant.votable_judgements else variant.judgement_label,
    )
    gone = _no_longer(session, game, court, merge(before, old_cold))
    _name_undone(session, game, ctx, merge(before, old_cold))
    lines = (changed or ["Nothing else changes: the game reads as before."]) + (
        ["", "No longer holds:", *gone] if gone else []
    )
    if court.unresolved:
        lines += ["", "Not carried out (they name nothing that counts):", *court.unresolved]
        ctx.alert("Undo lines that named nothing: " + "; ".join(court.unresolved))
    # A turn whose results wait for the GM's [Publish] is the GM's alone to hear of (SPEC §5.4).
    _tell(ctx, lines, state, "gm" if state.get("preview") else "all")
    ctx.out += court.mail
    voided = ", ".join(str(v.seq) for v in court.voided) or "none"
    ctx.note(f"{MARK} {voided}.")
    # The court record says what the undo did after what the entry itself did (its own lines,
    # "Score of Bob: 10 -> 0" of a ruling), so that each line reads on from the one before.
    for line in what_changed(
        merge(during, old_cold),
        merge(state, cold),
        merge(during, old_cold),
        "" if variant.votable_judgements else variant.judgement_label,
    ):
        ctx.note(line)
    session.execute(delete(ArchivedMatter).where(ArchivedMatter.game_id == game.id))
    if cold:
        session.execute(
            insert(ArchivedMatter),
            [
                {"game_id": game.id, "collection": c, "number": m["number"], "data": m}
                for c, m in cold
            ],
        )
    return state


def _no_longer(session: Session, game: Game, court: Court, before: GameState) -> list[str]:
    """Each entry the undo voids, in words: what it did, and why; a ballot on a matter the
    undo took away names that matter ("proposal 1 "Gold", which is undone"), not the journal."""
    seqs = sorted({v.seq for v in court.voided})
    rows = {
        r.seq: r
        for r in session.scalars(
            select(JournalEntry).where(JournalEntry.game_id == game.id, JournalEntry.seq.in_(seqs))
        )
    }
    name = _matter_names(before)
    out = []
    for v in sorted(court.voided, key=lambda v: v.seq):
        r = rows.get(v.seq)
        action = r.action if r else {}
        if v.gone is not None and action.get("type") == "vote":
            who = action.get("player") or action.get("by")
            on = name(v.gone)
            out.append(f"{who}'s vote on {on}: void, as {on} is undone.")
            continue
        what = describe_entry(action, r.summary) if r else "?"
        if v.ballots:  # only these matters' ballots of the entry are void
            on = " and ".join(name(("matter", n)) for n in v.ballots)
            if r and not (r.summary or "").strip() and action.get("type") == "vote":
                # No summary to quote ("Bob's vote on 1"): the ballot named by its matter.
                who = action.get("player") or action.get("by")
                out.append(f"{who}'s vote on {on} is undone.")
                continue
            out.append(f"{what}: the ballot on {on} is undone.")
            continue
        if v.gone is not None:
            why = f": void, as {name(v.gone)} is undone"
        else:
            why = f": {v.why}" if v.why else " (undone)"
        out.append(f"{what}{why}.")
    return out


def _matter_names(before: GameState) -> Callable[[tuple[str, int]], str]:
    """How a matter of BEFORE is named to players: ("proposal", 1) -> 'proposal 1 "Tea"'."""
    held: list[tuple[str, Matter]] = [("proposals", m) for m in before.get("proposals", [])]
    held += [("judgements", m) for m in before.get("judgements", [])]
    names = {
        (kind, m["number"]): f"{label_of(m, kind)} {m['number']} "
        f"\"{m.get('question') or m.get('title')}\""
        for kind, m in held
    }

    def name(gone: tuple[str, int]) -> str:
        label, number = gone
        kinds: tuple[str, ...] = ("proposals",) if label.lower() == "proposal" else ("judgements",)
        if label.lower() == "matter":  # one numbering (BlogNomic)
            kinds = ("proposals", "judgements")
        found = [names[(k, number)] for k in kinds if (k, number) in names]
        return found[0] if found else f"{label} {number}"

    return name


def _name_undone(session: Session, game: Game, ctx: Ctx, before: GameState) -> None:
    """An undo by entry number ([Undo] 41 42, `mailref undo`) says what it undid in the game's
    words, the proposal or the vote, in its announcement's subject and first line and in the
    answer: a player knows no journal numbers."""
    mail = next((o["mail"] for o in ctx.court if o.get("mail") is not None), None)
    if mail is None or not (seqs := mail.vars.get("undoing")):
        return
    rows = {
        r.seq: r
        for r in session.scalars(
            select(JournalEntry).where(JournalEntry.game_id == game.id, JournalEntry.seq.in_(seqs))
        )
    }
    name = _matter_names(before)
    words = []
    for seq in seqs:
        r = rows.get(seq)
        action = r.action if r else {}
        if action.get("type") == "vote" and action.get("ballots"):
            who = action.get("player") or action.get("by")
            on = " and ".join(name(("matter", int(b["number"]))) for b in action["ballots"])
            words.append(f"{who}'s vote on {on}")
        else:
            words.append(describe_entry(action, r.summary) if r else f"journal entry {seq}")
    said = "; ".join(words)
    mail.subject = "[Undo] " + (said if len(said) <= 100 else said[:99].rstrip() + "…")
    head = mail.vars["lines"][0].rstrip(".") + f": {said}."
    mail.vars["lines"] = [head, *mail.vars["lines"][1:]]
    ctx.ack(head)


def label_of(m: Matter, kind: str) -> str:
    """How a matter of the collection KIND is named to players: proposal, CfJ, judgement."""
    if m.get("kind") in ("cfj", "dov"):
        return matters.label(str(m["kind"]))
    if m.get("kind"):
        return matters.label(str(m["kind"])).lower()
    return "proposal" if kind == "proposals" else "judgement"


def describe_entry(action: dict[str, Any], summary: str) -> str:
    """What a journal entry did, in words: its summary's first line, or its action."""
    first = (summary or "").strip().splitlines()
    if first:
        return first[0].rstrip(".")
    who = action.get("player") or action.get("by")
    if action.get("type") == "vote" and action.get("ballots"):
        on = ", ".join(str(b.get("number")) for b in action["ballots"])
        return f"{who}'s vote on {on}"
    return f"{action.get('type')}" + (f" by {who}" if who else "")


def _tell(ctx: Ctx, lines: list[str], state: GameState, to: str) -> None:
    """The order's announcement carries LINES to TO ("all", or "gm"); the ack lists them too."""
    orders = [o for o in ctx.court if o.get("mail") is not None]
    if orders:
        mail = orders[0]["mail"]
        mail.to = to
        mail.vars["lines"] = [*mail.vars.get("lines", []), "", "What changes:", *lines]
    else:
        ctx.send(
            "announcement",
            to,
            f"[Undo] By {ctx.court[0]['label']}",
            "notice.txt",
            game=state,
            heading="What changes:",
            lines=lines,
        )
    ctx.ack("What changes:")
    for line in lines:
        ctx.ack(f"  {line}" if line else "")
