"""What substitutes, a player's record and the GM's [Score] refuse: seats opened, taken over,
and asked about; scores changed by mail."""

from mailref.engine.refusals.wording import Wording as W

WORDS = {
    "only_gm_vacates": W(
        "only the GM opens a seat to a substitute",
        "the GM ({{ gm or 'the admin' }}) sends [Vacate] NAME, or `mailref player vacate`",
    ),
    "only_gm_scores": W(
        "only the GM changes a score by mail",
        "the GM ({{ gm or 'the admin' }}) sends [Score] NAME +N, or `mailref score`",
    ),
    "score_unreadable": W(
        "{{ line|repr }} is not a score change",
        'write [Score] NAME +N, NAME -N or NAME =N, with the reason after "because"',
    ),
    "score_needs_a_reply": W(
        "a [Score] changes a score only as a Reply to mail the game sent you (anyone can write a "
        "mail From your address), so no score was changed",
        "reply to the game's last mail to you with [Score] NAME +N, or use `mailref score`",
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
