"""When BlogNomic takes no proposals: Hiatus (a pending DoV, the awaited Ascension Address),
Seasonal Downtime and Dormancy, and the Special Case rules that switch them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mailref.engine.state import BlogNomicState

_MONTH = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


class Hiatus:
    """Game-wide states that hold play back: held by the game as `hiatus`."""

    def __init__(self, game: Any) -> None:
        self.game = game

    @staticmethod
    def downtime_days(state: BlogNomicState) -> tuple[tuple[int, int], tuple[int, int]]:
        """Rule 3.4 "Seasonal Downtime": its first day and the day it ends, as (month, day);
        the parameter `downtime` follows the rule's text ("12-24..12-27")."""
        first, _, end = str(state["parameters"].get("downtime") or "12-24..12-27").partition("..")
        a, b = (tuple(int(x) for x in d.split("-")) for d in (first, end))
        return (a[0], a[1]), (b[0], b[1])

    @classmethod
    def downtime_text(cls, state: BlogNomicState) -> str:
        """The Downtime's days in words: "24–27 December"."""
        (m1, d1), (m2, d2) = cls.downtime_days(state)
        return (
            f"{d1}–{d2} {_MONTH[m1 - 1]}"
            if m1 == m2
            else f"{d1} {_MONTH[m1 - 1]} – {d2} {_MONTH[m2 - 1]}"
        )

    @classmethod
    def in_downtime(cls, now: datetime, state: BlogNomicState | None = None) -> bool:
        """Seasonal Downtime: from its first day until the day it ends (UTC), 24 to 27 December
        as the seed writes it; a span across the new year wraps."""
        (m1, d1), (m2, d2) = cls.downtime_days(state) if state else ((12, 24), (12, 27))
        today, first, end = (now.month, now.day), (m1, d1), (m2, d2)
        return first <= today < end if first <= end else (today >= first or today < end)

    @staticmethod
    def special_active(state: BlogNomicState, name: str) -> bool:
        """Rule "Special Case": "The text of Special Case Rules that are inactive shall be
        interpreted, for the purpose of play, to mean nothing." A repealed one means nothing
        either; one without a status "[X]" is active ("default to active")."""
        for r in state["rules"]:
            base, _, status = r["title"].partition("[")
            if r["number"].startswith("3.") and base.strip().lower() == name.lower():
                return not status.strip().lower().startswith("inactive")
        return False

    def downtime(self, state: BlogNomicState, now: datetime) -> bool:
        return (
            state["parameters"]["seasonal_downtime"]
            and self.special_active(state, "Seasonal Downtime")
            and self.in_downtime(now, state)
        )

    def dormant(self, state: BlogNomicState) -> bool:
        return (
            self.special_active(state, "Dormancy")
            and len(self.game.wizards.names(state)) < state["parameters"]["dormant_below"]
        )

    def hiatus_reason(self, state: BlogNomicState, now: datetime) -> str | None:
        if state["ascension_pending"]:
            return "the game is in Hiatus until the new Historian's Ascension Address"
        if any(j["kind"] == "dov" and j["status"] == "pending" for j in state["judgements"]):
            return "the game is in Hiatus while a Declaration of Victory is pending"
        if self.downtime(state, now):
            return f"the game is in Seasonal Downtime ({self.downtime_text(state)})"
        return None

    def sync_status(self, state: BlogNomicState, now: datetime) -> None:
        """SPEC §1.5: `hiatus` while proposals are not accepted (a pending DoV, the awaited
        Ascension Address, Seasonal Downtime)."""
        if state["status"] in ("active", "hiatus"):
            state["status"] = "hiatus" if self.hiatus_reason(state, now) else "active"
