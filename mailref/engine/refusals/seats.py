"""What substitutes and a player's record refuse: seats opened, taken over, and asked about."""

from mailref.engine.refusals.wording import Wording as W

WORDS = {
    "only_gm_vacates": W(
        "only the GM opens a seat to a substitute",
        "the GM ({{ gm or 'the admin' }}) sends [Vacate] NAME, or `mailref player vacate`",
    ),
    "vacate_names_no_one": W("[Vacate] names no one", "write whose seat to open: [Vacate] NAME"),
    "vacate_needs_a_reply": W(
        "a [Vacate] opens a seat only as a Reply to mail the game sent you (anyone can write a "
        "mail From your address), so no seat was opened",
        "reply to the game's last mail to you with [Vacate] NAME, or use `mailref player "
        "vacate`",
    ),
    "seat_open_already": W("the seat of {{ name }} is open already"),
    "no_open_seat": W(
        "the seat of {{ name|repr }} is not open to a substitute",
        "open seats: {{ open|join(', ') or 'none' }}",
    ),
    "takeover_names_no_seat": W(
        "[Takeover] names no seat", "write whose seat you take: [Takeover] NAME"
    ),
    "seat_is_open": W(
        "the seat of {{ name }} is open to a substitute: its mail no longer plays it",
        "[Status], [Rules], [History] and [Stats] still answer; write to the GM to have it back",
    ),
    "no_record": W(
        "nobody named {{ name|repr }} has played this game",
        "who has: {{ known|join(', ') }}",
    ),
}
