"""[Roll]: dice in the notation players write, and a variant's named generators."""

from __future__ import annotations

import re

from mailref.engine.context import Ctx, Refused
from mailref.engine.state import Action, GameState
from mailref.engine.variants.actions import Acting, action
from mailref.timeutil import iso


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


class Dice(Acting):
    """Random draws announced to the players; each draw is journaled through the context."""

    @action("dice_reveal")
    def on_dice_reveal(self, state: GameState, action: Action, ctx: Ctx) -> None:
        """`mailref dice reveal`: the seed in use is revealed and the next one committed."""
        lines = revealed_lines(ctx)
        self.event(state, ctx, "A dice seed was revealed.")
        for line in lines:
            ctx.ack(line)
        if lines:
            self.announce(state, ctx, "Dice: a seed is revealed", lines)

    def generators(self, state: GameState) -> dict[str, list[str]]:
        """Named random generators besides dice (BlogNomic's FRUIT and COLOUR)."""
        return {}

    @action("roll")
    def on_roll(self, state: GameState, action: Action, ctx: Ctx) -> None:
        word = (action.get("dice") or "").strip().upper()
        options = self.generators(state).get(word)
        if options:
            pick = options[ctx.randint(1, len(options)) - 1]
            p = action["player"]
            text = f"{p} rolled {word}: {pick}"
            state["rolls"].append(
                {
                    "at": iso(ctx.now),
                    "player": p,
                    "dice": word,
                    "values": [pick],
                    "why": action.get("why", ""),
                }
            )
            ctx.ack(text)
            self.event(state, ctx, text)
            self.announce(
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
            r"\s*(\d*)\s*d\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*", (action.get("dice") or "").lower()
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
            raise Refused("unreadable_roll", dice=dice, generators=list(self.generators(state)))
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
                "player": p,
                "dice": dice,
                "values": values,
                "why": action.get("why", ""),
            }
        )
        ctx.ack(text)
        self.event(state, ctx, text)
        self.announce(
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
