"""[Roll]: dice in the notation players write, and a variant's named generators."""

from __future__ import annotations

import re
from typing import Protocol

from mailref.engine.context import Ctx, Refused
from mailref.engine.mechanics import named_rolls
from mailref.engine.state import GameState, OtherAction
from mailref.engine.variants.actions import action
from mailref.timeutil import iso


class DiceHost(Protocol):
    """What the dice ask of the game they are rolled in."""

    def event(self, state: GameState, ctx: Ctx, text: str) -> None: ...

    def announce(self, state: GameState, ctx: Ctx, subject: str, lines: list[str]) -> None: ...

    def generators(self, state: GameState) -> dict[str, list[str]]: ...


def committed_line(ctx: Ctx) -> list[str]:
    """The SHA-256 of the seed the next draws come from (SPEC §4.4), told before they are made."""
    if not ctx.dice:
        return []
    return said_live(
        ctx,
        [
            f"Dice: the rolls from now on come from seed {ctx.dice['number']}, whose SHA-256 is "
            f"{ctx.dice['sha256']}. It is revealed later, so that anyone can check every roll."
        ],
    )


def said_live(ctx: Ctx, lines: list[str]) -> list[str]:
    """LINES, which name the seed: only the live door knows it, so a digest holds none of them
    (replay rebuilds what a digest holds, SPEC §8)."""
    ctx.seed_lines.update(lines)
    return lines


def revealed_lines(ctx: Ctx) -> list[str]:
    """Reveal the seed in use and commit the next, in words: each roll can now be recomputed."""
    r = ctx.reveal_dice()
    if not r:
        return []
    return said_live(
        ctx,
        [
            f"Dice: seed {r['number']} is revealed: {r['seed']}",
            f"  (its SHA-256 {r['sha256']} was published before its first roll).",
            "  Every roll it gave can be recomputed: `mailref dice verify`, or the game's dice "
            "page.",
            f"  The next rolls come from seed {r['next_number']}, whose SHA-256 is "
            f"{r['next_sha256']}.",
        ],
    )


class Dice:
    """Random draws announced to the players; each draw is journaled through the context."""

    def __init__(self, game: DiceHost) -> None:
        self.game = game

    @action("dice_reveal")
    def on_dice_reveal(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        """`mailref dice reveal`: the seed in use is revealed and the next one committed."""
        lines = revealed_lines(ctx)
        self.game.event(state, ctx, "A dice seed was revealed.")
        for line in lines:
            ctx.ack(line)
        if lines:
            self.game.announce(state, ctx, "Dice: a seed is revealed", lines)

    @action("roll")
    def on_roll(self, state: GameState, action: OtherAction, ctx: Ctx) -> None:
        word = str(action.get("dice") or "").strip().upper()
        options = self.game.generators(state).get(word)
        if options:
            pick = options[ctx.randint(1, len(options)) - 1]
            p = action["player"]
            text = f"{p} rolled {word}: {pick}"
            state["rolls"].append(
                {
                    "at": iso(ctx.now),
                    "player": p,  # type: ignore[typeddict-item]  # a non-player's: None  # type: ignore[typeddict-item]  # a non-player's: None
                    "dice": word,
                    "values": [pick],
                    "why": str(action.get("why", "")),
                }
            )
            ctx.ack(text)
            for line in named_rolls.told(state):  # its number, for an [Update] to name
                ctx.ack(line)
            self.game.event(state, ctx, text)
            self.game.announce(
                state,
                ctx,
                f"Roll: {p} rolled {word}",
                [text]
                + ([f"For: {action['why']}"] if action.get("why") else [])
                + self.drawn_from(ctx),
            )
            return
        # NdM+K, the notation players write: d6, DICE20, 2d10, 2d6+1, 3d8-2.
        m = re.fullmatch(
            r"\s*(\d*)\s*d\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*", str(action.get("dice") or "").lower()
        )
        # BlogNomic: "The DICEN command can be used to generate a random number between 1 and N"
        # (any N >= 1; "DICEN cannot be rolled in the GNDT if N is 22 or more digits long").
        if (
            not m
            or not (1 <= int(m.group(2)) < 10**21)
            or not (1 <= int(m.group(1) or 1) <= 20)
            or int(m.group(4) or 0) > 1000
        ):
            dice = str(action.get("dice") or "").strip()
            raise Refused(
                "unreadable_roll", dice=dice, generators=list(self.game.generators(state))
            )
        count, sides = int(m.group(1) or 1), int(m.group(2))
        bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
        dice = f"{count}d{sides}" + (f"{bonus:+d}" if bonus else "")
        values = [ctx.randint(1, sides) for _ in range(count)]
        p = action["player"]
        text = f"{p} rolled {dice}: {', '.join(map(str, values))}"
        if count > 1 or bonus:
            text += f" (total {sum(values) + bonus})"
        state["rolls"].append(
            {
                "at": iso(ctx.now),
                "player": p,  # type: ignore[typeddict-item]  # a non-player's: None
                "dice": dice,
                "values": values,
                "why": str(action.get("why", "")),
            }
        )
        ctx.ack(text)
        for line in named_rolls.told(state):  # its number, for an [Update] to name
            ctx.ack(line)
        self.game.event(state, ctx, text)
        self.game.announce(
            state,
            ctx,
            f"Die roll: {p} rolled {dice}",
            [text]
            + ([f"For: {action['why']}"] if action.get("why") else [])
            + self.drawn_from(ctx),
        )

    @staticmethod
    def drawn_from(ctx: Ctx) -> list[str]:
        if not ctx.dice:
            return []
        return [
            "",
            *said_live(
                ctx,
                [
                    f"Drawn from seed {ctx.dice['number']} (SHA-256 {ctx.dice['sha256']}), "
                    "checkable once the seed is revealed."
                ],
            ),
        ]
