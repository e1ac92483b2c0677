"""What an alteration of the gamestate refuses: a column nobody declared, a value its kind or
bounds forbid, a line that says no alteration. One such line refuses the whole mail."""

from mailref.engine.refusals.wording import Wording as W

HOW = (
    "write one alteration a line: `Thaum -3`, `Thaum of Bob +2`, `Hand: Fox, Owl`, "
    "`Home = Wilderness`, each with an optional `because ...`; nothing was changed"
)

WORDS = {
    "update_empty": W("your [Update] names no alteration", HOW),
    "update_unreadable": W("this line is no alteration: {{ line }}", HOW),
    "no_column": W(
        'there is no column "{{ column }}" in the gamestate ({{ line }})',
        "{% if columns %}the columns are {{ columns|join(', ') }}{% else %}no rule declares a "
        "column yet{% endif %}; nothing was changed",
    ),
    "column_no_owner": W(
        'there is no player "{{ name }}" to alter ({{ line }})', "nothing was changed"
    ),
    "column_unreadable": W(
        '{{ column }} holds {{ kind }} values; "{{ value }}" is none ({{ line }})',
        "nothing was changed",
    ),
    "column_below": W(
        "{{ column }} may not go below {{ bound }}: it would be {{ value }} ({{ line }})",
        "nothing was changed",
    ),
    "column_above": W(
        "{{ column }} may not go above {{ bound }}: it would be {{ value }} ({{ line }})",
        "nothing was changed",
    ),
    "column_too_long": W(
        "{{ column }} holds at most {{ most }}: it would hold {{ count }} ({{ line }})",
        "nothing was changed",
    ),
    "column_repeats": W(
        "{{ column }} may not hold one thing twice ({{ line }})", "nothing was changed"
    ),
    "column_lacks": W(
        '{{ column }} of {{ name }} holds no "{{ value }}" to take away ({{ line }})',
        "nothing was changed",
    ),
    "column_not_a_choice": W(
        '{{ column }} is one of {{ choices|join(", ") }}, not "{{ value }}" ({{ line }})',
        "nothing was changed",
    ),
    "column_not_a_player": W(
        '{{ column }} names a player; "{{ value }}" is none ({{ line }})', "nothing was changed"
    ),
    "trade_unreadable": W(
        "this is no trade: {{ line }}",
        "write `[Trade] Ben: my Fox for your Owl`, or `[Trade] Accept 3` to accept trade 3 "
        "(`[Trade] Decline 3` declines it)",
    ),
    "no_such_roll": W(
        "there is no roll {{ number }} ({{ line }})",
        "{% if count %}the rolls are numbered 1 to {{ count }}{% else %}no roll was made yet"
        "{% endif %}; nothing was changed",
    ),
    "roll_not_yours": W(
        "roll {{ number }} is {{ player }}'s, not yours ({{ line }})",
        "use a roll of your own: send [Roll] first; nothing was changed",
    ),
    "roll_used": W(
        "roll {{ number }} was used already ({{ line }})",
        "a roll is used once: send [Roll] again; nothing was changed",
    ),
    "roll_other_dice": W(
        "roll {{ number }} was of {{ dice }}, not {{ named }} ({{ line }})",
        "name the dice it was rolled with, or just `roll {{ number }}`; nothing was changed",
    ),
    "trade_no_answer": W(
        "your reply to trade {{ number }} neither accepts nor declines it",
        "reply with yes (or ok, accept) to accept it, or no (or decline) to decline it; "
        "the one who offered it withdraws it with no",
    ),
    "trade_with_oneself": W("a trade is with another player"),
    "trade_not_held": W(
        '{{ name }} holds no "{{ item }}"', "both items must be in their holders' hands to trade"
    ),
    "no_trade_for_you": W(
        "there is no trade {{ number }} offered to you", "send [Status] for the open trades"
    ),
    "trade_closed": W(
        "trade {{ number }} {% if status == 'expired' %}has expired: it was not accepted in time"
        "{% else %}is {{ status }} already{% endif %}",
        "{% if status == 'expired' %}offer it again with a new [Trade]{% endif %}",
    ),
    "column_kind_unknown": W(
        'there is no kind of column "{{ kind }}"', "the kinds are {{ kinds|join(', ') }}"
    ),
    "column_name_unreadable": W(
        'a column\'s name is one word of letters, digits and dashes, not "{{ name }}"'
    ),
    "column_exists": W("there is a column {{ name }} already"),
    "column_needs_choices": W(
        "column {{ name }} is one of a set: name its values", "give --choices A,B,C"
    ),
    "transfer_not_an_amount": W(
        "{{ column }} is no amount to transfer ({{ line }})",
        "only an asset or a number column is transferred; nothing was changed",
    ),
    "asset_by_transfer_only": W(
        "{{ column }} is an asset: it moves only by [Transfer] ({{ line }})",
        "send `[Transfer] 5 {{ column }} to Ben`; the GM alone writes it directly; "
        "nothing was changed",
    ),
    "transfer_not_positive": W(
        "only a positive amount is transferred ({{ line }})", "nothing was changed"
    ),
    "transfer_to_oneself": W("a transfer is to another player ({{ line }})", "nothing was changed"),
    "transfer_unreadable": W(
        "this line is no transfer: {{ line }}",
        "write `[Transfer] 5 Thaum to Ben`, one transfer a line, each with an optional "
        "`because ...`; nothing was changed",
    ),
    "only_gm_declares_columns": W(
        "only the GM declares a column", "a rule declares one by its words once enacted"
    ),
    "column_unwritten": W(
        "write the column's name and kind: [Column] Gold integer",
        "the kinds are integer, asset, text, list, choice, player; body lines `Default: 10`, "
        "`Min: 0`, `Max: 20`, `Max length: 4`, `Choices: Happy, Sad`",
    ),
    "column_not_yours": W(
        "in this game you update only your own values, not those of {{ name }} ({{ line }})",
        "nothing was changed",
    ),
}
