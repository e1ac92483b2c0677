"""When BlogNomic takes no proposals: Hiatus (a pending DoV, the awaited Ascension Address),
Seasonal Downtime and Dormancy, and the Special Case rules that switch them."""

from __future__ import annotations

from datetime import datetime

from mailref.engine.state import GameState
from mailref.engine.variants.actions import Acting


class Hiatus(Acting):
    """Game-wide states that hold play back."""

    @staticmethod
    def in_downtime(now: datetime) -> bool:
        """Seasonal Downtime: from 24 December until 27 December (UTC)."""
        return now.month == 12 and 24 <= now.day < 27

    @staticmethod
    def special_active(state: GameState, name: str) -> bool:
        """Rule "Special Case": "The text of Special Case Rules that are inactive shall be
        interpreted, for the purpose of play, to mean nothing." A repealed one means nothing
        either; one without a status "[X]" is active ("default to active")."""
        for r in state["rules"]:
            base, _, status = r["title"].partition("[")
            if r["number"].startswith("3.") and base.strip().lower() == name.lower():
                return not status.strip().lower().startswith("inactive")
        return False

    def downtime(self, state: GameState, now: datetime) -> bool:
        return (
            state["parameters"]["seasonal_downtime"]
            and self.special_active(state, "Seasonal Downtime")
            and self.in_downtime(now)
        )

    def dormant(self, state: GameState) -> bool:
        return (
            self.special_active(state, "Dormancy")
            and len(self.wizards(state)) < state["parameters"]["dormant_below"]
        )

    def hiatus_reason(self, state: GameState, now: datetime) -> str | None:
        if state["ascension_pending"]:
            return "the game is in Hiatus until the new Historian's Ascension Address"
        if any(j["kind"] == "dov" and j["status"] == "pending" for j in state["judgements"]):
            return "the game is in Hiatus while a Declaration of Victory is pending"
        if self.downtime(state, now):
            return "the game is in Seasonal Downtime (24–27 December)"
        return None

    def sync_status(self, state: GameState, now: datetime) -> None:
        """SPEC §1.5: `hiatus` while proposals are not accepted (a pending DoV, the awaited
        Ascension Address, Seasonal Downtime)."""
        if state["status"] in ("active", "hiatus"):
            state["status"] = "hiatus" if self.hiatus_reason(state, now) else "active"
