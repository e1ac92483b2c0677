"""What the people around a game's table are refused: watching it, press between its players,
and a draw or concession that ends it by agreement."""

from mailref.engine.refusals.wording import Wording as W

WORDS = {
    # watchers (variants/watching.py)
    "watching_off": W(
        "{{ game }} is not open to watchers (its GM set watching off)",
        "ask the GM, or send [Join] to play",
    ),
    "player_watches_already": W(
        "you play {{ game }}: its announcements and results come to you already"
    ),
    "watches_already": W("you watch {{ game }} already", "send [Unwatch] to stop getting its mail"),
    "watchers_full": W("{{ game }} has {{ most }} watchers, as many as it takes"),
    "no_watch_waiting": W(
        "no request to watch from {{ address }} is waiting for its confirmation (a confirmation "
        "can be answered for {{ days }} days)",
        "send [Watch] to ask again",
    ),
    "watch_reply_is_no_consent": W(
        "your reply to the confirmation does not say yes, so you do not watch the game (an "
        "automatic answer names the confirmation too)",
        "to watch, reply once more with the word yes as its first line",
    ),
    "not_watching": W(
        "{{ address }} does not watch {{ game }}", "send [Watch] to follow its announcements"
    ),
    "watchers_do_not_play": W(
        "you watch {{ game }}: a watcher gets its announcements and results, and does not "
        "vote, order or send press",
        "send [Join] with a body line `Name: YourName` to play; [Unwatch] to stop watching",
    ),
    # press (variants/press.py, handlers/press.py)
    "press_off": W("{{ game }} has no press (its GM set press off)"),
    "grey_press_off": W(
        "{{ game }} has no grey press: press here always names its sender",
        "send it again without `grey`",
    ),
    "press_without_text": W("your press has no words of your own, so nothing was sent"),
    "press_to_nobody": W(
        "{{ name }} is not a player of this game, so your press went to nobody",
        "name players after the tag: [Press] to {{ players | join(', ') or 'NAME' }} (or to all)",
    ),
    "press_names_no_one": W(
        "your press names nobody to send it to, so it went to nobody",
        "name players after the tag: [Press] to {{ players | join(', ') or 'NAME' }} (or to all)",
    ),
    "press_grey_reply": W(
        "grey press does not name its sender, so a Reply to it reaches nobody: yours went "
        "to nobody",
        "answer with [Press] to the players you mean (or to all)",
    ),
    "press_holds_orders": W(
        "your press holds bold text, which is read as orders: orders go with [Orders], so "
        "nothing was sent",
        "send your orders in a mail with the subject [Orders], and your press without bold",
    ),
    # an agreed end (variants/agreed_end.py, handlers/ending.py)
    "no_game_to_end": W("the game is {{ status }}: only a game under way ends by agreement"),
    "not_a_survivor": W(
        "{{ name }} is not a player still in the game",
        "the players still in it: {{ survivors | join(', ') }}",
    ),
    "draw_of_one": W(
        "a draw is shared by two players or more; {{ name }} alone would be a concession",
        "send [Concede] to {{ name }}",
    ),
    "concede_to_self": W(
        "you cannot concede to yourself", "send [Concede] to NAME, the player you concede to"
    ),
    "concede_names_no_one": W(
        "a concession names the one player it ends the game for",
        "send [Concede] to NAME",
    ),
    "ending_open": W(
        "{{ label }} is still open to votes: one draw or concession at a time",
        "vote on it by replying YES or NO to its mail",
    ),
    "no_ending_open": W(
        "no draw or concession {{ number }} is open to votes",
        "send [Status] for the game; [Draw] or [Concede] to NAME to propose one",
    ),
    "ending_voter_left": W("you are no longer in the game, so you have no vote on {{ label }}"),
    "ending_voter_came_later": W(
        "{{ label }} was proposed before you joined, so its vote is for those who played then"
    ),
    "no_end_ballot": W(
        "I found no YES or NO on {{ tag }} {{ number }} as the first word of your reply",
        "reply again with YES or NO on its first line",
    ),
}
