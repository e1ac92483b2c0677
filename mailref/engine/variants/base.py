"""What every variant shares: players and offices, joining and leaving, absence, dice,
admin overrides, pause, digests and the tick that fires deadlines."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from mailref.engine import matters
from mailref.engine.context import Ctx, Refused
from mailref.engine.ruleparams import SAYS, read_value
from mailref.engine.ruleset import (
    RuleConflict,
    apply_changes,
    changes_from,
    check_changes,
    sort_key,
)
from mailref.timeutil import format_duration, iso, parse_duration, parse_iso, when

LATE_GRACE = timedelta(seconds=90)  # a deadline acted on later than this is announced as late
READ_ONLY = {"status", "rules", "help"}
# Mail whose announcement to everybody is chatter, not play: capped per player and UTC day.
CHATTER = {"roll", "join", "away", "back", "quit", "idle", "unidle"}
# Mail that opens a matter every player is told of and asked to vote on or read.
OPENS_MATTER = frozenset({"propose", "cfj", "dov"})


class Variant:
    name = "base"
    title = "game"
    nomic = True
    judgement_label = "judgement"  # how players name a judgement ("judgement 3")
    defaults: dict[str, Any] = {"reminder_before": "1d", "digest_at": "08:00",
                                "require_auth": False,        # SPEC §2.7: act only on verified mail
                                "max_text": 20_000,           # characters of a proposal, rule or other text
                                "announcements_per_day": 10,  # chatter announcements one player causes
                                "matters_per_day": 10}        # proposals, CfJs, DoVs one player opens a UTC day
    duration_params: set[str] = {"reminder_before"}
    offices: tuple[str, ...] = ("admin", "gm")
    capped_matters: frozenset[str] = OPENS_MATTER  # actions counted against matters_per_day
    commands: list[tuple[str, str]] = []
    whole_rule_numbers = False  # sidekick: rule numbers are positive integers, no sub-rules
    # Tags a player obviously means but this game's rules do not offer: what the rules offer
    # instead, as (reason, hint), said in place of "[X] is not a command" (docs/decisions.md).
    instead: dict[str, tuple[str, str]] = {}
    # Tags that mean another of this game's commands: [Idle] is plainly being away, where a
    # game has absence but no idling (BlogNomic has its own, and takes [Away] as idling).
    same_as: dict[str, str] = {"idle": "away", "unidle": "back"}

    # ---- state ---------------------------------------------------------------------
    def initial_state(self, slug: str, name: str, address: str, gm: str | None,
                      timezone: str, parameters: dict[str, Any], now: datetime) -> dict:
        params = {**self.defaults}
        for k, v in parameters.items():
            params[k] = self.check_param(k, v)
        return {
            "slug": slug, "name": name or slug, "variant": self.name, "address": address,
            "gm": gm, "timezone": timezone, "status": "active" if self.nomic else "forming",
            "parameters": params, "players": [], "order": [], "turn": None,
            "proposals": [], "judgements": [], "rules": self.initial_rules(), "rule_history": [],
            "winners": [], "next_number": 1, "created": iso(now), "events": [],
            "digest_next": iso(self._next_digest(params, timezone, now)), "paused_at": None,
            "rolls": [],
        }

    def initial_rules(self) -> list[dict]:
        return []

    def check_param(self, key: str, value: Any) -> Any:
        known = set(self.defaults)
        if key not in known and key not in ("list_id",):
            raise Refused(f"unknown parameter {key!r} for {self.name}",
                          "known: " + ", ".join(sorted(known | {"list_id"})))
        default = self.defaults.get(key)
        if key in self.duration_params:
            try:
                return format_duration(parse_duration(str(value)))
            except ValueError as e:
                raise Refused(f"{key}: {e}") from None
        if key == "digest_at":
            if not re.fullmatch(r"([01]?\d|2[0-3]):[0-5]\d", str(value)):
                raise Refused(f"digest_at: {value!r} is not a time like 08:00")
            return str(value)
        if isinstance(default, bool):
            if str(value).lower() in ("on", "true", "yes", "1"):
                return True
            if str(value).lower() in ("off", "false", "no", "0"):
                return False
            raise Refused(f"{key}: {value!r} is not on/off")
        if isinstance(default, int):
            try:
                return int(value)
            except ValueError:
                raise Refused(f"{key}: {value!r} is not a whole number") from None
        return value

    def duration(self, state: dict, key: str) -> timedelta:
        return parse_duration(state["parameters"][key])

    def reminder_at(self, state: dict, deadline: datetime, opened: str | None) -> datetime:
        """When to remind of DEADLINE: `reminder_before` ahead of it, but never in the first half
        of the time the players were given (with a 1-day turn and the 1-day default, a reminder
        would otherwise arrive with the very mail it repeats)."""
        at = deadline - self.duration(state, "reminder_before")
        if opened:
            start = parse_iso(opened)
            at = max(at, start + (deadline - start) / 2)
        return at

    # ---- players -------------------------------------------------------------------
    @staticmethod
    def player(state: dict, name: str) -> dict | None:
        want = name.strip().lower()
        return next((p for p in state["players"] if p["name"].lower() == want), None)

    @staticmethod
    def by_address(state: dict, address: str) -> dict | None:
        a = address.lower()
        return next((p for p in state["players"] if a in p["addresses"] and p["status"] != "left"), None)

    @staticmethod
    def same_name(state: dict, name: str, keys: list[str]) -> dict | None:
        """The player whose name is NAME or folds to one of KEYS (look-alike letters)."""
        want = set(keys) | {name.lower()}
        return next((p for p in state["players"]
                     if want & (set(p.get("name_keys") or []) | {p["name"].lower()})), None)

    def must_player(self, state: dict, name: str) -> dict:
        p = self.player(state, name)
        if p is None or p["status"] == "left":
            raise Refused(f"there is no player {name!r} in this game",
                          "players: " + ", ".join(q["name"] for q in state["players"] if q["status"] != "left"))
        return p

    @staticmethod
    def active(state: dict) -> list[dict]:
        return [p for p in state["players"] if p["status"] == "active"]

    @staticmethod
    def present(state: dict) -> list[dict]:
        return [p for p in state["players"] if p["status"] != "left"]

    def event(self, state: dict, ctx: Ctx, text: str) -> None:
        state["events"].append({"at": iso(ctx.now), "text": text})
        del state["events"][:-300]
        ctx.note(text)

    def holder(self, state: dict, office: str) -> dict | None:
        return next((p for p in state["players"] if office in p["offices"] and p["status"] != "left"), None)

    # Rule number -> the parameters the referee runs that rule by (the GM is told when it changes).
    rule_parameters: dict[str, tuple[str, ...]] = {}
    # Rules whose wording the referee's code carries out (beside those run by parameters): a
    # passed rewording of one is flagged to the GM, since the referee goes on as written before.
    runs_rules: frozenset[str] = frozenset()

    # ---- dispatch ------------------------------------------------------------------
    def takes(self, tag: str) -> bool:
        """Whether a subject tag is a command of this variant (tags name their action)."""
        return tag in READ_ONLY | {"join", "quit", "turn", "roll", "away", "back"} or hasattr(
            self, "on_" + tag.replace("-", "_"))

    def not_a_command(self, state: dict, tag: str) -> Refused:
        """The refusal of a tag this variant has no use for, named as the player wrote it
        ("[Proposal]", not the action "[Propose]"), the variant named once ("of Eire", not
        "of Eire (Eire)"); or, for a word the player obviously meant, what the rules offer instead."""
        if tag in self.instead:
            return Refused(*self.instead[tag])
        label = matters.label(tag)
        game = state["name"] if state["name"] == self.title else f"{state['name']} ({self.title})"
        return Refused(f"[{label}] is not a command of {game}", "send [Help] for the commands of this game")

    def handle(self, state: dict, action: dict, ctx: Ctx) -> None:
        kind = action["type"]
        fn = getattr(self, "on_" + kind.replace("-", "_"), None)
        if fn is None:
            raise self.not_a_command(state, kind)
        if state["status"] == "ended" and kind not in READ_ONLY | {"tick", "set", "office", "player_add",
                                                                  "player_status", "player_remove", "digest"}:
            won = ", ".join(state["winners"])
            raise Refused(f"{state['name']} has ended" + (f"; won by {won}" if won else ""),
                          "send [Status] or [Rules] to read how it ended")
        if state["status"] == "paused" and kind not in READ_ONLY | {"resume", "tick", "set", "office", "player_add",
                                                                   "player_status", "player_remove", "digest",
                                                                   "join", "away", "back", "quit", "score", "rule"}:
            raise Refused("this game is paused by its admin", "the admin resumes it with `mailref game resume`")
        self.check_text_size(state, action)
        # Only actions that say so: a journal written before the cap holds matters it would
        # refuse now, and replaying them must give the same game (engine/replay.py).
        capped = kind in self.capped_matters and action.get("capped") and not action.get("by")
        if capped:
            self.check_matters_per_day(state, action, ctx)
        sent = len(ctx.out)
        fn(state, action, ctx)
        if capped:
            self.count_matter(state, action, ctx)
        if kind == "join" and action.get("capped") and not action.get("by"):
            self.cap_newcomers(state, ctx, sent)
        if kind in CHATTER and not action.get("by"):
            self.cap_chatter(state, action, ctx, sent)
        if action.get("by") and (why := str(action.get("reason") or "").strip()):
            self.tell_why(ctx, sent, why)

    @staticmethod
    def tell_why(ctx: Ctx, sent: int, why: str) -> None:
        """An admin's `--reason` is told to the players with what the command announced
        (SPEC §1.4: "the game is paused", and why), once: some announcements say it already."""
        for o in ctx.out[sent:]:
            lines = o.vars.get("lines")
            if o.template == "notice.txt" and isinstance(lines, list) and not any(why in str(x) for x in lines):
                o.vars["lines"] = [*lines, f"Reason: {why}"]

    def check_text_size(self, state: dict, action: dict) -> None:
        """A text a player sends is kept in the game and mailed to everybody: it has a size."""
        limit = int(state["parameters"].get("max_text", self.defaults["max_text"]))
        size = len(action.get("text") or "") + sum(len(s) for s in action.get("sentences") or [])
        if size > limit and not action.get("by"):
            raise Refused(f"the text is {size:,} characters long; this game takes at most {limit:,} (max_text)",
                          "shorten it; the admin can raise the limit with `mailref game set SLUG max_text=N`")

    def check_matters_per_day(self, state: dict, action: dict, ctx: Ctx) -> None:
        """Each matter a player opens is mailed to every player: one player's (or a forger's)
        hundreds of proposals or CfJs a day were hundreds of mails to each of the others
        (Imperial's replacement of the oldest undecided proposal limits what is pending, not
        what is sent). BlogNomic's own rules call more than ten entries a day spam."""
        limit = int(state["parameters"].get("matters_per_day", self.defaults["matters_per_day"]))
        opened = state.get("opened") or {}
        who = str(action.get("player") or "").lower()
        if opened.get("day") == ctx.now.strftime("%Y-%m-%d") and opened.get("by", {}).get(who, 0) >= limit:
            raise Refused(f"you have opened {limit} matters (proposals, CfJs, DoVs) today, the most this game "
                          "takes from one player in a day (matters_per_day); nothing was posted",
                          "send it again tomorrow (UTC); the admin can raise the limit with "
                          "`mailref game set SLUG matters_per_day=N`")

    @staticmethod
    def count_matter(state: dict, action: dict, ctx: Ctx) -> None:
        day = ctx.now.strftime("%Y-%m-%d")
        opened = state.get("opened") if (state.get("opened") or {}).get("day") == day else None
        opened = opened or {"day": day, "by": {}}
        who = str(action.get("player") or "").lower()
        opened["by"][who] = opened["by"].get(who, 0) + 1
        state["opened"] = opened

    def cap_newcomers(self, state: dict, ctx: Ctx, sent: int) -> None:
        """Newcomers are announced to everybody at most announcements_per_day times a UTC day
        in all: each [Join] is a new player, so the per-player cap never held, and 1,000 joins
        from throwaway addresses were 1,000 mails to every player. Past it, a join still
        happens (journal, digest, the newcomer's answer) and is not announced."""
        mine = [o for o in ctx.out[sent:] if o.kind == "announcement" and o.to == "all"]
        if not mine:
            return
        day = ctx.now.strftime("%Y-%m-%d")
        seen = state.get("newcomers") if (state.get("newcomers") or {}).get("day") == day else None
        seen = seen or {"day": day, "count": 0}
        state["newcomers"] = seen
        limit = int(state["parameters"].get("announcements_per_day", self.defaults["announcements_per_day"]))
        if seen["count"] >= limit:
            for o in mine:
                ctx.out.remove(o)
            ctx.ack(f"Not announced to the other players: {limit} newcomers have been announced today "
                    "(announcements_per_day); you are in the journal and the GM's digest.")
            return
        seen["count"] += 1

    def cap_chatter(self, state: dict, action: dict, ctx: Ctx, sent: int) -> None:
        """One player's rolls, joins and absences reach everybody at most announcements_per_day
        times a UTC day; past that they are kept (journal, digest) and not mailed."""
        who = str(action.get("player") or action.get("name") or "").lower()
        mine = [o for o in ctx.out[sent:] if o.kind == "announcement" and o.to == "all"]
        if not who or not mine:
            return
        day = ctx.now.strftime("%Y-%m-%d")
        counts = state.get("announced") if (state.get("announced") or {}).get("day") == day else None
        counts = counts or {"day": day, "by": {}}
        state["announced"] = counts
        limit = int(state["parameters"].get("announcements_per_day", self.defaults["announcements_per_day"]))
        if counts["by"].get(who, 0) >= limit:
            for o in mine:
                ctx.out.remove(o)
            ctx.ack(f"Not announced to the other players: you have caused {limit} announcements today "
                    "(announcements_per_day); this one is in the journal and the GM's digest.")
            return
        counts["by"][who] = counts["by"].get(who, 0) + 1

    # ---- joining, leaving, absence -------------------------------------------------
    def on_join(self, state: dict, action: dict, ctx: Ctx) -> None:
        name = " ".join(str(action.get("name") or "").split())
        address = action["address"].lower()
        if not name or not re.fullmatch(r"[\w][\w .'\-]{0,39}", name):
            # The hint names exactly what the pattern above takes.
            raise Refused(f"{name!r} is not a usable player name",
                          "add a body line `Name: YourName`: at most 40 characters, of letters, digits, spaces "
                          "and . ' - _, starting with a letter, digit or _")
        known = self.by_address(state, address)
        if known:
            raise Refused(f"{address} already plays as {known['name']}")
        keys = action.get("name_keys") or [name.lower()]
        old = self.same_name(state, name, keys)
        if old and old["status"] != "left":
            looks = "" if old["name"].lower() == name.lower() else f" (it looks like {old['name']})"
            raise Refused(f"the name {name} is taken{looks}", "choose another with a body line `Name: ...`")
        if old and address not in old["addresses"] and not action.get("by"):
            # A name stays its holder's after they leave: only they (or an admin) bring it back.
            raise Refused(f"the name {name} belongs to {old['name']}, who left the game; only one of "
                          f"{old['name']}'s addresses can rejoin under it", "choose another with a body line `Name: ...`")
        if old:  # a returning player keeps their record but starts afresh, as a newcomer does
            fields = self.new_player_fields(state, action)
            # Sidekick rule 19: "This includes players that join after the game has begun": 0 points.
            old.update(status="active", addresses=list(dict.fromkeys(
                [address] + old["addresses"] + [a for a in action.get("more", []) if a != address])),
                score=0, rejoined=iso(ctx.now), **fields)
            player = old
        else:
            player = {"name": name, "addresses": [address] + [a.lower() for a in action.get("more", [])],
                      "status": "active", "score": 0, "offices": [], "joined": iso(ctx.now), "name_keys": keys}
            player.update(self.new_player_fields(state, action))
            state["players"].append(player)
        # Logged before what the join sets off: the digest read "Turn order drawn: Alice, Bob"
        # above "Bob joined".
        self.event(state, ctx, f"{name} joined.")
        self.after_join(state, player, action, ctx)
        ctx.ack(f"{name} joined {state['name']} ({', '.join(player['addresses'])}).")
        if action["type"] == "join":
            # Anyone can send [Join] From someone else's address, and nothing asks that address
            # first: its owner learns here how to stop the game's mail.
            ctx.reply_vars = {**ctx.reply_vars, "not_you": state["address"]}

    def on_player_add(self, state: dict, action: dict, ctx: Ctx) -> None:
        sent = len(ctx.out)
        self.on_join(state, action, ctx)
        self.welcome_added(state, action, ctx, sent)

    def welcome_added(self, state: dict, action: dict, ctx: Ctx, sent: int) -> None:
        """A player the admin added (`mailref player add`) learns it in one mail of their own:
        the join's answer went to the admin's terminal, and "X joins the game" told them nothing
        of where they stand or how to play. What the others were told goes in it, once."""
        p = self.by_address(state, action["address"])
        if p is None:
            return
        lines = [f"Your address{'es' if len(p['addresses']) > 1 else ''} here: {', '.join(p['addresses'])}."]
        if p["name"] in state.get("order") or []:
            lines.append(f"You are at place {state['order'].index(p['name']) + 1} of the turn order: "
                         f"{', '.join(state['order'])}.")
        others = [q["name"] for q in self.present(state) if q["name"] != p["name"]]
        for o in ctx.out[sent:]:
            if o.to == "all":  # the others' announcement; its news (a turn order drawn) goes in the welcome
                o.to = others
                said = [x for x in o.vars.get("lines", []) if x != f"{p['name']} has joined {state['name']}."]
                if said:  # Eire's "Maeve of the Plainsmen, Red, rises in Donal.", a turn order drawn
                    lines += ["", *said]
        lines += ["", f"Write to {state['address']}: send [Help] for the commands, [Rules] for the rules, "
                      "[Status] for the game's state."]
        ctx.send("announcement", [p["name"]], f"Welcome to {state['name']}", "notice.txt", game=state,
                 heading=f"{p['name']}, the admin has added you to {state['name']}.", lines=lines)

    def new_player_fields(self, state: dict, action: dict) -> dict:
        return {}

    def after_join(self, state: dict, player: dict, action: dict, ctx: Ctx) -> None:
        self.announce(state, ctx, f"{player['name']} joins the game", [f"{player['name']} has joined {state['name']}."])

    def on_quit(self, state: dict, action: dict, ctx: Ctx) -> None:
        p = self.must_player(state, action["player"])
        p["status"], p["left_at"] = "left", iso(ctx.now)
        for office in list(p["offices"]):
            p["offices"].remove(office)
        if p["name"] in state["order"]:
            self.before_leaving_order(state, p, ctx)
            state["order"].remove(p["name"])
        ctx.ack(f"{p['name']} has left {state['name']}.")
        self.event(state, ctx, f"{p['name']} left the game.")
        self.announce(state, ctx, f"{p['name']} leaves the game", [f"{p['name']} has left the game."])
        self.after_status_change(state, p, ctx)

    def on_player_remove(self, state: dict, action: dict, ctx: Ctx) -> None:
        self.on_quit(state, action, ctx)
        self.tell_removed(state, action, ctx)

    def tell_removed(self, state: dict, action: dict, ctx: Ctx) -> None:
        """The admin removed a player: the others read "X leaves the game", and X learns it too
        (a [Quit] is answered; a removal had left its player wondering why the mail stopped)."""
        p = self.player(state, action["player"])  # left now: must_player would not find them
        ctx.send("announcement", [p["name"]], "You have been removed from the game", "notice.txt", game=state,
                 heading=f"{p['name']}, the admin has removed you from {state['name']}.",
                 lines=[f"Reason: {action.get('reason') or 'none given'}.",
                        "Mail from you to this game is no longer acted on; write to the GM "
                        f"({state.get('gm') or 'the admin'}) if this is a mistake."])

    def tell_vote_override(self, state: dict, action: dict, ctx: Ctx, name: str, matter: dict, label: str,
                           vote: str, previous: str | None) -> None:
        """The admin changed a player's ballot (`mailref vote`): its player is told, with the
        reason; the tally mails show it to the others."""
        was = f" (it was {previous})" if previous else ""
        title = matter.get("question") or matter["title"]
        ctx.send("announcement", [name], f"[{label} {matter['number']}] Your vote was set by the admin", "notice.txt",
                 game=state, heading=f"The admin recorded your vote on {label.lower()} {matter['number']} "
                                     f"\"{title}\" as {vote}{was}.",
                 lines=[f"Reason: {action.get('reason') or 'none given'}.",
                        "Your own vote, sent later, replaces it as any vote does."])

    def before_leaving_order(self, state: dict, player: dict, ctx: Ctx) -> None:
        pass

    def on_away(self, state: dict, action: dict, ctx: Ctx) -> None:
        self._set_away(state, action, ctx, "away")

    def on_back(self, state: dict, action: dict, ctx: Ctx) -> None:
        self._set_away(state, action, ctx, "active")

    def on_player_status(self, state: dict, action: dict, ctx: Ctx) -> None:
        self._set_away(state, action, ctx, action["status"])

    def _set_away(self, state: dict, action: dict, ctx: Ctx, status: str) -> None:
        p = self.must_player(state, action.get("name") or action["player"])
        if action.get("player") and action.get("name") and p["name"] != action["player"] and not action.get("by"):
            raise Refused(f"you can only say that of yourself, not of {p['name']}")
        word = {"away": "away", "active": "back", "idle": "idle"}[status]
        if p["status"] == status:
            ctx.ack(f"{p['name']} is already {word}; nothing changed.")
            return
        p["status"] = status
        ctx.ack(f"{p['name']} is now {word}.")
        self.event(state, ctx, f"{p['name']} is {word}.")
        text = f"{p['name']} is away." if status == "away" else f"{p['name']} has returned." if status == "active" else f"{p['name']} is {word}."
        self.announce(state, ctx, text, [text])
        self.after_status_change(state, p, ctx)

    def after_status_change(self, state: dict, player: dict, ctx: Ctx) -> None:
        pass

    # ---- replies that only read ----------------------------------------------------
    def on_help(self, state: dict, action: dict, ctx: Ctx) -> None:
        ctx.reply("help", "help.txt", commands=self.commands, game=state, reason=action.get("reason", ""))

    def on_status(self, state: dict, action: dict, ctx: Ctx) -> None:
        ctx.reply("status", "status.txt", game=state, lines=self.status_lines(state))

    def on_rules(self, state: dict, action: dict, ctx: Ctx) -> None:
        ctx.reply("ruleset", "rules.txt", game=state, rules=self.rules_for_display(state),
                  scores=self.score_lines(state), standing=self.standing_lines(state))

    def rules_for_display(self, state: dict) -> list[dict]:
        return state["rules"]

    def standing_lines(self, state: dict) -> list[str]:
        """What the rule list shows besides the rules, before the scores (sidekick rules 5–6)."""
        return []

    def score_lines(self, state: dict) -> list[str]:
        return [f"{p['name']}: {p['score']}" for p in self.present(state)]

    def status_lines(self, state: dict) -> list[str]:
        lines = [f"Status: {state['status']}"]
        lines.append("Players: " + ", ".join(f"{p['name']} ({p['status']}, {p['score']})" for p in self.present(state)))
        if state["order"]:
            lines.append("Turn order: " + ", ".join(state["order"]))
        if state["turn"]:
            t = state["turn"]
            # No "deadline none": a mover who moved is waiting for the vote, not late.
            due = (f", moved: proposal {t['proposal']}" if t.get("proposal") else
                   f", deadline {self.when(state, t['deadline'])}" if t.get("deadline") else "")
            lines.append(f"Turn {t['number']}: {t.get('player') or 'nobody present can move'}{due}")
        for p in state["proposals"]:
            if p["status"] in self.open_statuses:
                due = f", deadline {self.when(state, p['deadline'])}" if p.get("deadline") else ""
                lines.append(f"Proposal {p['number']} \"{p['title']}\" by {p['author']}: {p['status']}{due}")
        for j in state["judgements"]:
            if j["status"] == "open":
                lines.append(f"Judgement {j['number']} by {j['by']}: open, judge {j.get('judge') or '-'}")
        if state["winners"]:
            lines.append("Winners: " + ", ".join(state["winners"]))
        return lines

    open_statuses: tuple[str, ...] = ("voting", "pending")
    archived_collections: tuple[str, ...] = ("proposals", "judgements")  # see engine/archive.py

    def still_open(self) -> tuple[str, ...]:
        """Statuses of matters that are never archived, whatever their timestamps say."""
        return (*self.open_statuses, "open", "pending", "voting", "awaiting-judgement")

    # ---- dice --------------------------------------------------------------------
    def generators(self, state: dict) -> dict[str, list[str]]:
        """Named random generators besides dice (BlogNomic's FRUIT and COLOUR)."""
        return {}

    def on_roll(self, state: dict, action: dict, ctx: Ctx) -> None:
        word = (action.get("dice") or "").strip().upper()
        options = self.generators(state).get(word)
        if options:
            pick = options[ctx.randint(1, len(options)) - 1]
            p = action["player"]
            text = f"{p} rolled {word}: {pick}"
            state["rolls"].append({"at": iso(ctx.now), "player": p, "dice": word, "values": [pick],
                                   "why": action.get("why", "")})
            ctx.ack(text)
            self.event(state, ctx, text)
            self.announce(state, ctx, f"Roll: {p} rolled {word}", [text] + ([f"For: {action['why']}"] if action.get("why") else []))
            return
        # NdM+K, the notation players write: d6, DICE20, 2d10, 2d6+1, 3d8-2.
        m = re.fullmatch(r"\s*(\d*)\s*d\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*", (action.get("dice") or "").lower())
        # BlogNomic: "The DICEN command can be used to generate a random number between 1 and N"
        # (any N >= 1; "DICEN cannot be rolled in the GNDT if N is 22 or more digits long").
        if not m or not (1 <= int(m.group(2)) < 10 ** 21) or not (1 <= int(m.group(1) or 1) <= 20) \
                or int(m.group(4) or 0) > 1000:
            dice = str(action.get("dice") or "").strip()
            raise Refused(f"{dice!r} is not a roll I can make" if dice else "say what to roll",
                          "write [Roll] d6, [Roll] DICE20, [Roll] 2d10 or [Roll] 2d6+1 (N from 1 to 21 digits)"
                          + (", or " + ", ".join(f"[Roll] {g}" for g in self.generators(state)) if self.generators(state) else ""))
        count, sides = int(m.group(1) or 1), int(m.group(2))
        bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
        dice = f"{count}d{sides}" + (f"{bonus:+d}" if bonus else "")
        values = [ctx.randint(1, sides) for _ in range(count)]
        p = action["player"]
        text = f"{p} rolled {dice}: {', '.join(map(str, values))}"
        if count > 1 or bonus:
            text += f" (total {sum(values) + bonus})"
        state["rolls"].append({"at": iso(ctx.now), "player": p, "dice": dice, "values": values,
                               "why": action.get("why", "")})
        ctx.ack(text)
        self.event(state, ctx, text)
        self.announce(state, ctx, f"Die roll: {p} rolled {dice}", [text] + ([f"For: {action['why']}"] if action.get("why") else []))

    # ---- admin -------------------------------------------------------------------
    def on_set(self, state: dict, action: dict, ctx: Ctx) -> None:
        for key, value in action["values"].items():
            if key == "name":
                state["name"] = value
            elif key == "gm":
                state["gm"] = value or None
            elif key == "timezone":
                try:
                    ZoneInfo(value)
                except Exception:
                    raise Refused(f"unknown time zone {value!r}") from None
                state["timezone"] = value
            else:
                state["parameters"][key] = self.check_param(key, value)
            ctx.ack(f"{key} = {value}")
            self.event(state, ctx, f"Parameter {key} set to {value} by {action.get('by')}.")
        lines = [f"{k} is now {v}" for k, v in action["values"].items()]
        timing = [k for k in action["values"] if k in self.duration_params and k != "reminder_before"]
        running = self.current_deadline_holder(state)
        if timing and running and running.get("deadline"):
            # A new length counts from the next turn or vote; the deadline already given stands.
            note = (f"{', '.join(timing)} applies from the next deadline set; the one running now, "
                    f"{self.when(state, running['deadline'], ctx)}, stands.")
            ctx.ack(note + f" To move it: `mailref deadline {state['slug']} extend DURATION` or `set WHEN`.")
            lines.append(note)
        self.announce(state, ctx, "Game parameters changed", lines)

    def on_office(self, state: dict, action: dict, ctx: Ctx) -> None:
        office = action["office"].lower()
        for p in state["players"]:
            if office in p["offices"]:
                p["offices"].remove(office)
        if action.get("holder"):
            p = self.must_player(state, action["holder"])
            p["offices"].append(office)
            text = f"{p['name']} now holds the office of {office}."
        else:
            text = f"The office of {office} is vacant."
        ctx.ack(text)
        self.event(state, ctx, text)
        self.announce(state, ctx, f"Office: {office}", [text])

    def on_pause(self, state: dict, action: dict, ctx: Ctx) -> None:
        if state["status"] in ("paused", "ended"):
            raise Refused(f"the game is {state['status']}")
        state["resume_status"] = state["status"]
        state["status"], state["paused_at"] = "paused", iso(ctx.now)
        ctx.ack("Game paused; deadlines stop.")
        self.event(state, ctx, "The game was paused.")
        self.announce(state, ctx, "The game is paused", ["The admin paused the game. Deadlines are stopped until it resumes."])

    def on_resume(self, state: dict, action: dict, ctx: Ctx) -> None:
        if state["status"] != "paused":
            raise Refused("the game is not paused")
        shift = ctx.now - parse_iso(state["paused_at"])
        self.shift_deadlines(state, shift)
        state["status"], state["paused_at"] = state.pop("resume_status", "active"), None
        ctx.ack(f"Game resumed; deadlines moved {format_duration(shift)} later.")
        self.event(state, ctx, "The game resumed.")
        # Each running deadline as it now stands: "moved 6d later" alone left the sum to the players.
        t = state["turn"]
        due = [f"Turn {t['number']}" + (f" ({t['player']} to move)" if t.get("player") else "")
               + f": due {self.when(state, t['deadline'], ctx)}."] if t and t.get("deadline") else []
        due += [f"Proposal {p['number']} \"{p['title']}\": votes due {self.when(state, p['deadline'], ctx)}."
                for p in state["proposals"] if p.get("deadline") and p.get("status") in ("voting", "pending")]
        self.announce(state, ctx, "The game resumes",
                      [f"Play resumes. Every deadline moved {format_duration(shift)} later."] + ([""] + due if due else []))

    def shift_deadlines(self, state: dict, shift: timedelta) -> None:
        def later(x: str | None) -> str | None:
            return iso(parse_iso(x) + shift) if x else x

        if state["turn"] and state["turn"].get("deadline"):
            state["turn"]["deadline"] = later(state["turn"]["deadline"])
        for p in state["proposals"] + state["judgements"]:
            if p.get("deadline"):
                p["deadline"] = later(p["deadline"])

    def on_score(self, state: dict, action: dict, ctx: Ctx) -> None:
        p = self.must_player(state, action["player"])
        op, n = action["op"], int(action["amount"])
        before = p["score"]
        p["score"] = n if op == "=" else before + n if op == "+" else before - n
        text = f"{p['name']}'s score: {before} -> {p['score']}" + (f" ({action['reason']})" if action.get("reason") else "")
        ctx.ack(text)
        self.event(state, ctx, text)
        self.announce(state, ctx, f"Score: {p['name']}", [text])
        self.check_victory(state, ctx)

    def check_victory(self, state: dict, ctx: Ctx) -> None:
        pass

    def on_rule(self, state: dict, action: dict, ctx: Ctx) -> None:
        changes = changes_from(action["changes"])
        by = action.get("by_label") or f"admin {action.get('by')}"
        try:
            rules, entries, diff = apply_changes(state["rules"], changes, by, iso(ctx.now), state["rule_history"],
                                                  self.whole_rule_numbers)
        except RuleConflict as e:
            raise Refused(str(e)) from None
        state["rules"] = rules
        state["rule_history"] += entries
        for c in changes:
            ctx.ack(c.describe())
        self.event(state, ctx, f"Rule change by {by}: " + "; ".join(c.describe() for c in changes))
        self.mail_ruleset(state, ctx, f"Ruleset updated by {by}", diff, reason=action.get("reason"))

    def cannot_apply(self, state: dict, changes: list) -> str | None:
        """Why CHANGES could not apply to the ruleset as it reads now (a dry run), or None."""
        try:
            check_changes(state["rules"], changes, state["rule_history"], self.whole_rule_numbers)
        except RuleConflict as e:
            return str(e)
        return None

    def enactment_note(self, state: dict, changes: list) -> str | None:
        """The line the players read in a decided matter's result when the referee will not change
        the ruleset for it (SPEC §3.1: flagged to the GM, never half-applied), so that nobody
        believes an "ENACTED" changed the rules when it did not."""
        if not changes:
            return "It has no rule changes the referee can apply: the GM applies its effects."
        problem = self.cannot_apply(state, changes)
        if problem:
            return (f"Its rule changes cannot apply to the ruleset as it now reads ({problem}): none of them is "
                    "applied, and the GM is asked to correct the ruleset.")
        return None

    def enact_changes(self, state: dict, ctx: Ctx, changes: list, by: str, why: str,
                      then: Callable[[], None] | None = None) -> str | None:
        """Apply a decided matter's CHANGES exactly and mail the ruleset; never half-apply.
        THEN runs once the rules (and the parameters they set) are in force, before the ruleset
        mail, so that what it does (open the next turn) follows the new rules and the mail shows it.
        Returns why nothing was applied (the GM is alerted), or None."""
        if not changes:
            ctx.alert(f"{why}; it has no rule changes the referee could read: apply its effects with "
                      "`mailref rule ...` / `mailref score ...`.")
            if then:
                then()
            return "no readable rule changes"
        try:
            rules, entries, diff = apply_changes(state["rules"], changes, by, iso(ctx.now), state["rule_history"],
                                                  self.whole_rule_numbers)
        except RuleConflict as e:
            ctx.alert(f"{why} but its changes could not apply: {e}. Nothing was applied; correct the ruleset "
                      "with `mailref rule ...`.")
            if then:
                then()
            return str(e)
        titles = {str(r.get("title", "")).lower(): r["number"] for r in state["rules"]}
        state["rules"], state["rule_history"] = rules, state["rule_history"] + entries
        touched = {c.number or titles.get(str(c.ref_title or "").lower()) for c in changes if c.kind != "enact"}
        reworded = {c.number or titles.get(str(c.ref_title or "").lower()) for c in changes
                    if c.kind not in ("enact", "retitle")}
        coded = sorted((x for x in reworded if x in self.runs_rules and x not in self.rule_parameters), key=sort_key)
        new = [c for c in changes if c.kind == "enact"]
        also = ""
        if new:  # SPEC §3.1 leaves such rules to the GM: one line in the digest says so, not an alert
            named = ", ".join(f'{c.number or ""} "{c.title}"'.strip() for c in new)
            also = (f"The referee does not run its new rule{'s' if len(new) > 1 else ''} {named}: "
                    "what they require is the GM's to apply (`mailref score`, `mailref rule`).")
            self.event(state, ctx, f"{why}. {also}")
        followed = self.follow_rule_parameters(state, ctx, sorted(x for x in touched if x in self.rule_parameters), why,
                                               coded=coded, also=also)
        if then:
            then()
        self.mail_ruleset(state, ctx, why, diff + ([""] + followed if followed else []))
        return None

    def follow_rule_parameters(self, state: dict, ctx: Ctx, numbers: list[str], why: str,
                               coded: list[str] | None = None, also: str = "") -> list[str]:
        """The referee runs some rules by parameters (Sidekick rule 22 is fail_points). When a
        passed change rewrites such a rule, the parameter follows the new text where it says the
        value unmistakably; otherwise the GM is asked to set it. CODED are rewritten rules the
        referee carries out as the game's documents wrote them (Sidekick rule 12: more FOR than
        AGAINST): the GM is told that the new wording is theirs to enforce. Returns the lines
        telling the players what the referee now does; the GM gets one alert for it all."""
        told, ask, sets = [], [], []
        if coded:
            titles = {str(r["number"]): r.get("title", "") for r in state["rules"]}
            named = ", ".join(f'{n} "{titles[n]}"' if titles.get(n) else n for n in coded)
            ask.append(f"It rewrites rule{'s' if len(coded) > 1 else ''} {named}, which the referee carries out as the "
                       "game's initial rules say, not as they now read: where the new wording decides otherwise, "
                       "correct the outcome by hand (`mailref proposal enact|fail`, `mailref vote`, `mailref score`, "
                       "`mailref game set`).")
        texts = {str(r["number"]): str(r.get("text", "")) for r in state["rules"]}
        for n in sorted(numbers, key=lambda x: [int(p) for p in x.split(".") if p.isdigit()]):
            for name in self.rule_parameters[n]:
                before = state["parameters"].get(name)
                value = read_value(name, texts[n]) if n in texts else None
                if value is None:
                    ask.append(f"It changes rule {n}, which the referee runs as {name} = {before}, and the new text "
                               f"does not say a value the referee can read. If it changes that, set it with "
                               f"`mailref game set {state['slug']} {name}=...`.")
                    continue
                value = self.check_param(name, value)
                if value == before:
                    continue
                state["parameters"][name] = value
                line = (f"From now on the referee runs rule {n} as it now reads: {SAYS[name].format(v=value)} "
                        f"({name}: {before} -> {value}).")
                told.append(line)
                sets.append(f"{name}=...")
                self.event(state, ctx, line)
        if told or ask:  # ALSO (what else is the GM's) rides along, never alone
            undo = (["If a reading is wrong, set it with `mailref game set " + state["slug"] + " " + " ".join(sets) + "`."]
                    if sets else [])
            ctx.alert(f"{why}.\n\n" + "\n".join(told + undo + ask + ([also] if also else [])))
        return told

    def mail_ruleset(self, state: dict, ctx: Ctx, why: str, diff: list[str], reason: str | None = None,
                     address: str = "") -> None:
        ctx.send("ruleset", "all", f"[Rules] {why}", "ruleset.txt", game=state, why=why, diff=diff,
                 rules=self.rules_for_display(state), scores=self.score_lines(state), reason=reason or "",
                 standing=self.standing_lines(state), address=address)

    def on_deadline(self, state: dict, action: dict, ctx: Ctx) -> None:
        target = self.current_deadline_holder(state)
        if target is None:
            raise Refused("nothing in this game has a deadline now")
        old = parse_iso(target["deadline"])
        new = old + parse_duration(action["extend"]) if action.get("extend") else parse_iso(action["when"])
        target["deadline"] = iso(new)
        target.pop("reminded", None)
        what = (f"The vote on proposal {target['number']}" if "title" in target and "number" in target
                else f"Turn {target['number']}'s deadline" if "number" in target else "The deadline")
        text = f"{what} moved from {self.when(state, old)} to {self.when(state, new, ctx)}."
        ctx.ack(text)
        self.event(state, ctx, f"{what} moved from {self.when(state, old)} to {self.when(state, new)}.")  # read later: no "in 1 minute"
        self.announce(state, ctx, "Deadline changed", [text] + ([f"Reason: {action['reason']}"] if action.get("reason") else []))

    @staticmethod
    def when(state: dict, value: datetime | str | None, ctx: Ctx | None = None) -> str:
        """A deadline for people: in the game's zone, UTC beside it, and how far off."""
        return when(value, state.get("timezone") or "UTC", ctx.now if ctx else None)

    def current_deadline_holder(self, state: dict) -> dict | None:
        return state["turn"] if state["turn"] and state["turn"].get("deadline") else None

    # ---- timers ------------------------------------------------------------------
    def wakeups(self, state: dict, now: datetime) -> list[datetime]:
        """Every moment this game must be woken at; the earliest is scheduled. A deadline
        still owed (at or before NOW) is included, so it fires as soon as possible."""
        times = [parse_iso(state["digest_next"])]
        if state["status"] in ("paused", "ended"):
            return times
        return times + self.deadline_times(state, now)

    def deadline_times(self, state: dict, now: datetime) -> list[datetime]:
        return []

    def on_tick(self, state: dict, action: dict, ctx: Ctx) -> None:
        if state["status"] not in ("paused", "ended"):
            self.fire_deadlines(state, ctx)
        if ctx.now >= parse_iso(state["digest_next"]):
            self.send_digest(state, ctx)

    def fire_deadlines(self, state: dict, ctx: Ctx) -> None:
        pass

    def late_note(self, due: datetime, ctx: Ctx) -> str:
        if ctx.now - due > LATE_GRACE:
            return (f"(Late: this deadline passed at {when(due)} while the referee could not act; "
                    f"acted on at {when(ctx.now)}.)")
        return ""

    # ---- digest ------------------------------------------------------------------
    def _next_digest(self, params: dict, tz: str, now: datetime) -> datetime:
        hh, mm = (int(x) for x in params.get("digest_at", "08:00").split(":"))
        if tz == "UTC" and now.tzinfo is UTC:  # most games: the same moment without zone rules (replay, SPEC §8)
            nxt = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
            return nxt + timedelta(days=1) if nxt <= now else nxt
        local = now.astimezone(ZoneInfo(tz))
        nxt = local.replace(hour=hh, minute=mm, second=0, microsecond=0)
        if nxt <= local:
            nxt += timedelta(days=1)
        return nxt.astimezone(parse_iso(iso(now)).tzinfo)

    def on_digest(self, state: dict, action: dict, ctx: Ctx) -> None:
        self.send_digest(state, ctx)
        ctx.ack("Digest sent to the GM.")

    def send_digest(self, state: dict, ctx: Ctx) -> None:
        waited = self.late_players(state, ctx.now)
        ctx.send("digest", "gm", "Digest", "digest.txt", game=state,
                 events=list(state["events"]), pending=self.status_lines(state),
                 late=[line for line, due in waited if due and parse_iso(due) <= ctx.now],
                 waiting=[line for line, due in waited if not due or parse_iso(due) > ctx.now],
                 refused=self.refused_orders(state), facts=ctx.facts)
        state["events"] = []
        state["digest_next"] = iso(self._next_digest(state["parameters"], state["timezone"], ctx.now))

    def late_players(self, state: dict, now: datetime | None = None) -> list[tuple[str, str | None]]:
        """(line, deadline) of everyone the game waits for; the digest lists under "Late" only
        those whose deadline has passed, the rest under "Waiting for"."""
        return []

    def refused_orders(self, state: dict) -> list[str]:
        return []

    # ---- mail helpers ------------------------------------------------------------
    def announce(self, state: dict, ctx: Ctx, subject: str, lines: list[str], kind: str = "announcement",
                 to: list[str] | str = "all", opens: bool = False) -> None:
        # The subject already says it: the body does not repeat it as a heading.
        ctx.send(kind, to, subject, "notice.txt", game=state, heading="", lines=lines, opens=opens)
