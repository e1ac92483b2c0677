"""The steps of processing one kept mail, run in the order chain.py declares: each step makes
one check and either decides the mail (sets its status and verdict, queues any answer, returns
True) or passes it on. First what no game needs (a forged sender, a machine's mail, our own
mail come back, mail to postmaster), then routing to a game, then the checks in the game (list
posts, a tag mistyped, the wrong game's address, authentication), then the command itself."""

from __future__ import annotations

import dataclasses
import secrets

from mailref import door, engine, routing, verification
from mailref.engine import Refused
from mailref.engine.state import Action, Player
from mailref.engine.variants.base import OPENS_MATTER
from mailref.outgoing import Source, queue_alert
from mailref.read import Envelope, match_game
from mailref.read.administrivia import administrivia
from mailref.read.ballots import quoted_ballot, vote_like
from mailref.read.lists import game_sending, through_its_list
from mailref.read.route import is_postmaster
from mailref.read.subject import bare_command, no_tag, parse_subject
from mailref.referee import verdicts
from mailref.referee.case import Case
from mailref.referee.mails import release_shadowed
from mailref.referee.records import elsewhere
from mailref.referee.threads import (
    AS_A_PLAYER,
    GM_NEEDS_A_REPLY,
    answers_own_mail,
    locked_game,
    needs_a_reply,
    record_bounces,
)
from mailref.reply import queue_reply
from mailref.routing import (
    did_you_mean,
    example_tags,
    game_named,
    game_of_thread,
    games_list,
    read_in_game,
    wrong_door,
    wrong_game,
)
from mailref.store.counters import count_reply

# Actions that take in a newcomer: announced a few times a day in all (variants/base.py).
NEWCOMERS = frozenset({"join", "confirm", "approve"})


# ---- before routing: what no game needs -------------------------------------------


def refuse_forged_sender(c: Case) -> bool:
    """A From nobody can be told at: a reply would go to whichever address the forger chose."""
    env = c.env
    if env.from_problem and "from" in env.headers and env.machine in (None, "no From address"):
        c.row.game_slug = match_game(env.recipients, c.games)
        return c.decide(verdicts.PROCESSED, verdicts.sender_refused(env.from_problem))
    return False


def ignore_machine(c: Case) -> bool:
    """A machine's mail (loop, bounce, auto-reply) is never answered; a bounce is recorded. On
    the game's own mailing list `Precedence: list` marks a player's post, not a machine's."""
    env = c.env
    if env.machine and not (env.machine == "Precedence: list" and on_its_list(c)):
        c.decide(verdicts.IGNORED, verdicts.machine(env.machine))
        if env.bounce_for:
            record_bounces(c.s, env, c.row, c.now)
        return True
    return False


def on_its_list(c: Case) -> bool:
    """Whether the mail came through the mailing list its game is played on (SPEC §2.3)."""
    slug = match_game(c.env.recipients, c.games) if c.env.list_id else None
    return slug is not None and through_its_list(
        c.env.list_id, locked_game(c.s, slug).state["parameters"].get("list_id")
    )


def ignore_own_mail(c: Case) -> bool:
    """A list echoing a game's mail without our headers: our own mail come back."""
    if own := game_sending(c.env.from_addr, c.games):
        return c.decide(verdicts.IGNORED, verdicts.own_mail_back(own))
    return False


def keep_replies_off_games(c: Case) -> None:
    """A Reply-To at a game's address is not answered there: that would mail the game itself."""
    if game_sending(c.env.reply_to, c.games):
        c.env.reply_to = None


def pass_to_postmaster(c: Case) -> bool:
    """Mail to postmaster (RFC 5321 §4.5.1) is for a person: the admin is told who wrote and
    what, and reads it whole with `mailref mail show`. Nothing goes back to the sender; a
    sender past the day's allowance (SPEC §2.2) is not passed on again until the next day."""
    env, row = c.env, c.row
    if not any(is_postmaster(r) for r in env.recipients) or match_game(
        env.recipients, c.games, named=True
    ):
        return False
    sender = env.from_addr or row.mail_from or "?"
    if (
        count_reply(c.s.connection(), f"postmaster:{sender}", c.now.strftime("%Y-%m-%d"))
        > c.settings.replies_per_day
    ):
        return c.decide(verdicts.PROCESSED, verdicts.POSTMASTER_OVER_ALLOWANCE)
    lines = [
        f"Mail #{row.id} to postmaster from {sender}: {env.subject_line[:200] or '(no subject)'}",
        "",
    ]
    lines += [line[:200] for line in env.body.strip().splitlines()[:20]]
    lines += ["", f"Read it whole: mailref mail show {row.id}"]
    queue_alert(c.s, c.settings, None, None, f"Mail to postmaster from {sender}", lines, c.now)
    return c.decide(verdicts.PROCESSED, verdicts.POSTMASTER_PASSED)


# ---- routing ------------------------------------------------------------------------


def route(c: Case) -> None:
    """The game the recipients name, else the one whose mail this answers (routing.py); and
    where an answer goes."""
    env = c.env
    where = routing.route(c.s, env, c.games)
    c.slug, c.by_thread = where.slug, where.by_thread
    c.source = Source(
        "mail",
        str(c.row.id),
        reply_to=env.reply_to or env.from_addr,
        message_id=env.message_id,
        references=env.references,
        subject=env.subject_line[:200],
        inbox_id=c.row.id,
        identity=env.from_addr,
        stranger=True,
    )


def ignore_stray_list_mail(c: Case) -> bool:
    """A list's post or a newsletter without a command, for no game: not answered."""
    if c.slug is None and c.env.subject.tag is None and list_or_bulk(c.env):
        return c.decide(verdicts.IGNORED, verdicts.LIST_OR_NEWSLETTER)
    return False


def list_the_games(c: Case) -> bool:
    """Mail for no game is answered with the list of games (SPEC §2.5)."""
    if c.slug is not None:
        return False
    c.decide(verdicts.PROCESSED, verdicts.NO_GAME)
    queue_reply(
        c.s,
        c.settings,
        None,
        c.routed(),
        c.now,
        "help",
        "games.txt",
        {
            "game": {},
            "games": games_list(c.s),
            "referee": c.settings.from_address,
            "note": wrong_door(c.s, c.env.subject.raw, c.env.from_addr),
        },
    )
    return True


def open_game(c: Case) -> None:
    """Lock the game, find the sender in it and read the subject with the game's labels."""
    env, source = c.env, c.routed()
    c.row.game_slug = c.slug
    if c.slug is not None:  # list_the_games answered mail for no game
        c.game = locked_game(c.s, c.slug)
        c.variant = engine.get_variant(c.game.variant)
    g = c.opened()
    c.player = g.variant.players.by_address(g.state, g.sender)
    c.gm = str(g.state.get("gm") or c.settings.admin_address).lower()
    # Fewer answers a day to an address that plays no game here.
    source.stranger = (
        c.player is None
        and g.sender.lower() != c.gm
        and not routing.plays_here(c.s, g.sender, c.settings.admin_address)
    )
    # A Reply to the game's own mail to the sender (a player's, or the GM's who steers by
    # Reply) is answered past the day's allowance: a forger has no such Message-ID.
    own = c.player["addresses"] if c.player else [g.sender] if g.sender.lower() == c.gm else []
    source.answering = bool(own and env.in_reply_to and answers_own_mail(c.s, env, g.slug, own))
    reading = read_in_game(c.s, env, g.state["name"], g.slug)
    env.subject, c.labels, c.foreign = reading.subject, reading.labels, reading.foreign


# ---- in the game ----------------------------------------------------------------------


def ignore_list_discussion(c: Case) -> bool:
    """A post without a command on the list the game is played on: the players talking."""
    if c.env.subject.tag is None and through_its_list(
        c.env.list_id, c.opened().state["parameters"].get("list_id")
    ):
        return c.decide(verdicts.IGNORED, verdicts.LIST_DISCUSSION)
    return False


def ignore_list_or_bulk(c: Case) -> bool:
    """Another list's post or a newsletter without a command: not answered."""
    if c.env.subject.tag is None and list_or_bulk(c.env):
        return c.decide(verdicts.IGNORED, verdicts.LIST_OR_NEWSLETTER)
    return False


def suggest_a_tag(c: Case) -> bool:
    """A bracketed word that is no command: the nearest ones are suggested."""
    if c.env.subject.tag is None and c.env.subject.unknown:
        return c.answer_error(
            *did_you_mean(c.env.subject.unknown, example_tags(c.opened().variant))
        )
    return False


def point_to_labelled_game(c: Case) -> bool:
    """ "Re: [Nomes] [Proposal 1] Tea" sent to Blog's address (an address book's slip, no
    In-Reply-To): Blog's own proposal 1 is not the one meant. Say where it belongs."""
    subject = c.env.subject
    if (
        subject.tag
        and subject.label
        and not c.by_thread
        and not c.foreign
        and (other := game_named(c.s, subject.label, c.opened().slug)) is not None
    ):
        return c.answer_error(*wrong_game(c.s, other, c.opened().state["name"], named=True))
    return False


def point_to_thread_game(c: Case) -> bool:
    """A Reply sent to the wrong game's address: say where it belongs, not "[Vote] is no
    command"."""
    subject = c.env.subject
    if (
        subject.is_reply
        and subject.tag
        and (not c.opened().variant.takes(subject.tag) or c.foreign)
        and not c.by_thread
        and (other := game_of_thread(c.s, c.env)) is not None
        and other != c.slug
    ):
        return c.answer_error(*wrong_game(c.s, other, c.opened().state["name"]))
    return False


def refuse_unverified(c: Case) -> bool:
    """A command that SPEC §2.7 cannot verify as the sender's; the answer goes where the
    refusal says."""
    if c.env.subject.tag in (None, "help"):
        return False
    unverified = verification.refusal(c.opened().game.state, c.env, c.player, c.settings)
    if not unverified:
        return False
    release_shadowed(c.s, c.row)
    return c.answer_error(
        unverified.reason,
        unverified.hint,
        verdicts.not_verified(unverified.why),
        dataclasses.replace(c.routed(), reply_to=unverified.reply_to, unverified=c.slug or "-"),
    )


def answer_administrivia(c: Case) -> bool:
    """A player's "unsubscribe" alone asks for less mail: answered with how, never relayed.
    A stranger's is left unanswered, as any of a stranger's words (SPEC §2.2)."""
    if c.env.subject.tag is not None or not administrivia(c.env.subject.rest, c.env.text):
        return False
    g = c.opened()
    if c.player is None and g.sender.lower() != c.gm:
        return False
    asked = Refused("unsubscribe_request", game=g.state["name"])
    return c.answer_error(asked.reason, asked.hint, refusal=asked.code)


def relay_discussion(c: Case) -> bool:
    """A player's mail in which nothing was read as a command is the players talking (SPEC
    §2.3): relayed to the other players; its sender gets no copy back and no answer."""
    from mailref.referee.discussion import reads_as_orders, relays

    subject, g = c.env.subject, c.opened()
    if subject.tag is not None or c.player is None or not relays(g.game.state):
        return False
    if bare_command(subject.rest):  # "Proposal: Caps": a command without its brackets
        return False
    if verification.refusal(g.game.state, c.env, c.player, c.settings):  # §2.7: maybe forged
        return False
    if g.variant.takes("orders") and reads_as_orders(c.env):
        # Bold orders without their tag: the opponents must not read them as words.
        r = Refused("orders_without_tag", count=len(c.env.orders))
        return c.answer_error(r.reason, r.hint, refusal=r.code)
    return relay_words(c, c.player)


def relay_words(c: Case, player: Player) -> bool:
    """Relay the words of PLAYER's mail to the other players and decide the mail by it; False:
    nobody reads them, and the sender is answered as before."""
    from mailref.referee.discussion import relay

    sent = relay(c.s, c.settings, c.opened().game, player, c.env, c.now, c.row.id)
    if sent == 0:
        return False
    if sent is None:
        return c.decide(verdicts.IGNORED, verdicts.DISCUSSION_OVER_ALLOWANCE)
    return c.decide(verdicts.PROCESSED, verdicts.discussion(sent))


def refuse_reply_without_command(c: Case) -> bool:
    """A player's or the GM's reply without a command ("Re: Carol joins" with "Welcome!", the
    GM's "Thanks" to the digest): words for the players, not a request for the help."""
    if (
        c.env.subject.tag is None
        and c.env.subject.is_reply
        and (c.player is not None or c.opened().sender.lower() == c.gm)
    ):
        if line := command_on_first_line(c.env.text):  # "[Set] dormant_below=3" in the body
            r = Refused("command_in_body", line=line)
            return c.answer_error(r.reason, r.hint, refusal=r.code)
        return c.answer_error(
            "I found no command in your reply, so nothing was done",
            "to act, send a mail whose subject starts with a command tag; " "send [Help] for them",
        )
    return False


def command_on_first_line(text: str) -> str:
    """The first line of TEXT where it starts with a command's tag, else ""."""
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")[:200]
    return first if first.startswith("[") and parse_subject(first).tag else ""


def ignore_stranger_without_command(c: Case) -> bool:
    """A stranger's words to a game's address are no question for it (a list's notice, a
    forged sign-up): not answered (SPEC §2.2); the help goes to mail sent to the referee."""
    if (
        c.env.subject.tag is None
        and c.player is None
        and c.opened().sender.lower() != c.gm
        and match_game(c.env.recipients, c.games, named=True) == c.slug
    ):
        return c.decide(verdicts.IGNORED, verdicts.STRANGER_WITHOUT_COMMAND)
    return False


def apply_command(c: Case) -> None:
    """The command's handler turns the mail into an action, which goes through the door; no
    command at all is a request for the help."""
    from mailref.handlers import GameView, dispatch

    env, tag, g = c.env, c.env.subject.tag, c.opened()
    if tag in ("join", "confirm", "takeover", "watch") and c.player is None:
        # SPEC §2.3: the address that would play is the one asked and answered, whatever
        # Reply-To says.
        c.source = dataclasses.replace(c.routed(), reply_to=g.sender)
    view = GameView(
        g.state,
        g.variant,
        c.player,
        c.gm,
        c.settings.admin_address or "",
        verifies=bool(c.settings.trusted_authserv_ids),
    )
    if tag in GM_NEEDS_A_REPLY and not gm_vouched(c):
        if tag in AS_A_PLAYER and c.player is not None:
            view = dataclasses.replace(view, gm="", admin="")  # the GM who plays, as a player
        else:
            r = needs_a_reply(tag)
            c.answer_error(r.reason, r.hint, refusal=r.code)
            return
    if tag is None:
        action: Action = {
            "type": "help",
            "player": view.name,
            "reason": no_tag(env.subject.rest),
        }
    else:
        try:
            action = dispatch(env, view, tag)
        except Refused as r:
            if not talking(c, r):
                c.answer_error(r.reason, r.hint + relayed_instead(c, r), refusal=r.code)
            return
    action["source"] = f"mail:{c.row.id}"
    c.tag = "vote" if action["type"] == "vote" else tag
    if action["type"] in OPENS_MATTER or action["type"] in NEWCOMERS:
        action["capped"] = (
            True  # counted against matters_per_day, or the newcomers announced (variants/base.py)
        )
    if action["type"] == "stats":
        action["elsewhere"] = elsewhere(c.s, g.slug, g.game.state, action, c.now)
    if action["type"] == "join" or action["type"] == "takeover" or action["type"] == "watch":
        # The code of its confirmation is made here and journaled, so replay needs no secret.
        action["token"] = secrets.token_hex(16)
    outcome = door.apply(c.s, g.game, action, c.routed(), c.now, c.settings, c.rng)
    c.decide(
        verdicts.PROCESSED,
        verdicts.ok(outcome.lines) if outcome.ok else verdicts.error(outcome.reason),
    )


def talking(c: Case, refused: Refused) -> bool:
    """A Reply in a matter's thread with no line that looks like a ballot, in the sender's
    words or the quote ("Lovely idea, Alice."), is the players talking: relayed, not told
    "No vote found". A line with a vote word, or a ballot left in the quote, is still asked
    about again."""
    from mailref.handlers.registry import Talk
    from mailref.handlers.vote import NoBallot
    from mailref.referee.discussion import relays

    if not (isinstance(refused, Talk) and c.env.subject.is_reply and c.player is not None):
        return False
    if isinstance(refused, NoBallot) and (
        refused.params.get("ignored") or vote_like(c.env.text) or quoted_ballot(c.env.body)
    ):
        return False
    return relays(c.opened().game.state) and relay_words(c, c.player)


def gm_vouched(c: Case) -> bool:
    """Whether the GM's [Approve] is the GM's beyond a From anyone can write: verified where
    the game requires it (refuse_unverified ran), else a Reply to mail the game sent the GM
    (the alert asking for it), whose Message-ID only the GM has. Others are refused later."""
    g = c.opened()
    sender, admin = g.sender.lower(), (c.settings.admin_address or "").lower()
    if sender not in {c.gm, admin} or g.state["parameters"].get("require_auth"):
        return True
    return answers_own_mail(c.s, c.env, c.slug or "", [sender])


def relayed_instead(c: Case, refused: Refused) -> str:
    """A Reply in which a ballot was looked for and none found is the players talking too
    (SPEC §2.3): relayed as discussion, and the refusal says so."""
    from mailref.handlers.registry import Talk
    from mailref.referee.discussion import relay, relays

    if not (isinstance(refused, Talk) and c.env.subject.is_reply and c.player is not None):
        return ""
    g = c.opened()
    if not relays(g.game.state):
        return ""
    sent = relay(c.s, c.settings, g.game, c.player, c.env, c.now, c.row.id)
    if not sent:
        return ""
    return "\nYour words went to the other players as discussion."


def list_or_bulk(env: Envelope) -> bool:
    """Mail from a mailing list (List-Id, RFC 2919) or a newsletter (List-Unsubscribe, RFC 2369)
    that does not say Precedence: list or bulk. Without a command it is one of the list's
    posts or a newsletter, not a question: answering would mail every poster the help."""
    return bool(env.list_id) or "list-unsubscribe" in env.headers
