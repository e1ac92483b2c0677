"""What the orders games refuse: starting, ordering, results."""

from mailref.engine.refusals.wording import Wording as W

WORDS = {
    "no_withdrawal_of_orders": W(
        "{{ game }} has no withdrawal: {% if final == 'refuse' %}orders once sent cannot be "
        'changed (Eire: "You cannot edit your orders once you\'ve send the post"); only orders '
        "the referee refused may be sent again, until the deadline{% elif final == 'add' %}orders "
        "sent again are added to those already sent{% else %}orders sent again replace those "
        "already sent{% endif %}",
        "send [Status] for the turn and its deadline",
    ),
    "game_not_forming": W("the game is {{ status }}, not forming"),
    "too_few_to_start": W("a game needs at least {{ least }} players to start"),
    "orders_too_late": W(
        "turn {{ turn }} closed {{ closed }}, and the GM is adjudicating it: orders sent now are "
        "too late for it",
        "send them again when turn {{ turn + 1 }} opens (the GM's results open it).",
    ),
    "no_turn_open": W(
        "no turn is open for orders{% if forming %} (the game is still forming){% endif %}"
    ),
    "only_active_order": W("only active players order"),
    "no_bold_orders": W(
        "I found no bold text in your own words: only bold text is an order"
        '{% for t in loose %}; "{{ t }}" looks like one, but is not in bold{% endfor %}',
        "{{ example }} or <b>…</b> or [b]…[/b]",
    ),
    "orders_without_tag": W(
        "your mail is mostly bold lines ({{ count }} read as orders) and its subject has no "
        "[Orders] tag, so it was neither taken as orders nor relayed to the other players",
        "add [Orders] to the subject to send them as your orders; words to the players "
        "without bold reach them",
    ),
    "orders_sent_again": W(
        "these are the orders you sent {{ at }}, word for word: they are recorded and stand as "
        "they were (orders cannot be edited once sent)"
    ),
    "orders_are_final": W(
        "you cannot edit your orders once you've sent them (this game's orders are final)"
    ),
    "only_gm_posts_results": W("only the GM posts results, from the GM's address"),
    "no_turn_awaits_results": W("no turn is waiting for results"),
    "only_gm_publishes": W("only the GM publishes a turn's results, from the GM's address"),
    "no_results_waiting": W(
        "no results are waiting to be published"
        "{% if not preview %} (this game has gm_preview off){% endif %}"
    ),
}
