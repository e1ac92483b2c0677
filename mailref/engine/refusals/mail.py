"""What the reading of a player's mail refuses (handlers/): a command it cannot read, a mail
that is no command, a sender who is no player."""

from mailref.engine.refusals.wording import Wording as W

PLAYER_DEADLINE = "to ask the GM for more time, send [Deadline] +1d, and why on a line below"
GM_DEADLINE = (
    "write one of these after the tag or on a line of its own: +2d (extend), Fri 18:00 (a new "
    "deadline), pause, resume, or ok / no to a player's request"
)
TOO_LONG = (
    "your mail is longer than the referee reads ({{ most|thousands }} characters, lines of "
    "{{ lines|thousands }}, {{ parts|thousands }} MIME parts), "
)
CFJ_INSTEAD = "to ask another question, send a new mail with the subject [CfJ] Your question"
ASK_THE_GM = "ask the GM{% if gm %} ({{ gm }}){% endif %} to add this one"

WORDS = {
    "not_a_command_here": W("[{{ tag }}] is not a command here", "send [Help] for the commands"),
    "unsubscribe_request": W(
        "your mail asks to stop the mail; it was not passed on to the other players",
        "to get one mail a day instead of each one, send [Settings] digest: daily; to leave "
        "{{ game }}, send [Quit]",
    ),
    "no_command_in_reply": W(
        "I found no command in your reply, so nothing was done",
        "to act, send a mail whose subject starts with a command tag; send [Help] for them",
    ),
    "command_in_body": W(
        "I found no command in your reply, so nothing was done",
        'a command\'s tag goes at the start of the subject: put "{{ line }}" in the subject, '
        "any lines below it in the body, and send it again",
    ),
    "forwarded_proposal": W(
        "your mail forwards a proposal{% if title %} ({{ title }}){% endif %}: a forwarded text "
        "is not submitted as your proposal (its author is whoever wrote it), so nothing was posted",
        "to propose it yourself, send a new mail (not a forward) with the subject [Proposal] "
        "{{ title or 'Title' }} and the text in its body",
    ),
    "forwarded_vote": W(
        "your mail forwards {% if number is not none %}proposal {{ number }}{% else %}a proposal"
        "{% endif %}: a forward is not a vote, so no vote was recorded",
        "to vote, reply to the proposal's announcement, or send a new mail with the subject "
        "[Vote] {{ number if number is not none else 'N' }} and your vote on a line of its own",
    ),
    "forwarded_command": W(
        "your mail forwards a [{{ tag }}] mail: a forwarded mail is not a command, so nothing was "
        "done",
        "to act yourself, send a new mail (not a forward) with the subject [{{ tag }}] … and your "
        "own words in its body; send [Help] for the commands",
    ),
    "player_has_left": W(
        "you ({{ name }}) have left {{ game }}; its commands are for its players",
        "send [Join] to play again ([Help] is answered for anyone)",
    ),
    "not_a_players_address": W(
        "{{ address }} is not an address of a player of {{ game }}",
        "if you are {{ name }}, write from the address you play from, or " + ASK_THE_GM,
    ),
    "gm_not_a_player": W(
        "you are the GM of {{ game }}, not one of its players: [{{ tag }}] is a player's command",
        "to play as well, send [Join] with a body line `Name: YourName`; [Status], [Rules] "
        "and [Help] show you the game",
    ),
    "not_a_player": W(
        "{{ address }} is not a player of {{ game }}",
        "send [Join] with a body line `Name: YourName` to play; if you play from another "
        "address, write from that one or " + ASK_THE_GM,
    ),
    "too_long_to_read": W(
        TOO_LONG + "so these {{ what }} were not read", "send shorter {{ what }}"
    ),
    "proposal_too_long_to_read": W(
        TOO_LONG + "so this proposal was not read", "send a shorter proposal"
    ),
    # WHAT: "proposal", "orders" or "results", each with what was not done for it.
    "text_only_attached": W(
        "your {% if what == 'proposal' %}proposal's text is{% else %}{{ what }} are{% endif %} in "
        "an attachment, and the referee reads only the mail's own text ({% if what == 'proposal' "
        "%}nothing was posted{% elif what == 'orders' %}nothing was recorded{% else %}nothing was "
        "sent to the players{% endif %})",
        "put the text in the body of the mail itself, not in an attachment",
    ),
    "proposal_needs_title": W(
        "a proposal needs a title", "write the subject as: [Proposal] Your title"
    ),
    "withdraw_names_no_proposal": W(
        "say which proposal to withdraw", "write the subject as: [Withdraw] 12"
    ),
    # FAULTS: (line number, the line's first 80 characters, why) of the reader (read/rulechanges).
    "unreadable_rule_changes": W(
        "{% if faults|length == 1 %}I could not read a rule change on line {{ faults[0][0] }} "
        '("{{ faults[0][1] }}"): {{ faults[0][2] }}{% else %}I could not read {{ faults|length }} '
        'rule changes:{% for n, text, why in faults %}\n  - on line {{ n }} ("{{ text }}"): '
        "{{ why }}{% endfor %}{% endif %}",
        'Enact rule {{ free }} "Title":\n<text>\nAmend rule 12 to read:\n<text>\n'
        'In rule 12, replace "old words" with "new words".\nRepeal rule 15.\n'
        'Retitle rule 12 to "New title".',
    ),
    "unreadable_proclamation": W(
        "{% if faults|length == 1 %}I could not read a rule change on line {{ faults[0][0] }}: "
        "{{ faults[0][1] }}{% else %}I could not read {{ faults|length }} rule changes:"
        "{% for n, why in faults %}\n  - on line {{ n }}: {{ why }}{% endfor %}{% endif %}"
    ),
    "matter_closed": W("{{ matter }} is closed; votes are no longer taken"),
    "no_ballot": W(
        "No vote found for {% if number %}proposal {{ number }}{% else %}any proposal{% endif %} "
        "in your own words (quoted text does not count)"
        "{% if until %}; votes on it are taken until {{ until }}{% endif %}",
        '{{ how }}{% for ln in near_misses %}\nNot read as a ballot: "{{ ln }}"{% endfor %}'
        '{% for ln, why in ignored %}\nSet aside: "{{ ln }}" ({{ why }}){% endfor %}',
    ),
    "not_a_vote_word": W(
        '"{{ line }}": {{ word }} is not a vote in this game', "vote {{ words|join(', ') }}"
    ),
    "no_deadline_command": W(
        "I found no deadline command in your mail",
        "{% if gm %}" + GM_DEADLINE + "{% else %}" + PLAYER_DEADLINE + "{% endif %}",
    ),
    "deadline_length_past_bound": W(
        "{{ value|repr }} is more than {{ most }}: a deadline moves by mail at most {{ most }} "
        "ahead",
        "ask for a shorter time, and again when it runs short",
    ),
    "only_gm_moves_deadline": W(
        "only the GM moves the deadline or pauses the game", PLAYER_DEADLINE
    ),
    "ascension_needs_theme": W(
        "your Ascension Address needs its theme",
        "add a line `Theme: your theme` (or send a mail with the subject [Ascension] Your theme)",
    ),
    "ascension_names_theme": W(
        "an Ascension Address names the dynasty's theme",
        "write the subject as: [Ascension] Your theme",
    ),
    "historian_names_no_one": W(
        "name the Wizard who becomes Historian", "write the subject as: [Historian] Ben"
    ),
    "judge_names_no_proposal": W(
        "say which proposal you judge",
        "write the subject as: [Judge] 12, and ACCEPT, VETO or IGNORE in the body",
    ),
    "no_judgement_found": W(
        "I found no judgement: ACCEPT, VETO or IGNORE must come first",
        "ACCEPT\nVETO\nIGNORE under rule 12 (the rule that allows ignoring it)",
    ),
    "playtest_says_neither": W(
        "say whether the playtest starts or ends",
        "write the subject as: [Playtest] start, or [Playtest] end",
    ),
    "reply_to_ruleset": W(
        "your reply to the ruleset mail has no command in it, so nothing was done",
        "send a mail with the subject [Rules] alone for the rule list; send [Help] for the "
        "commands",
    ),
    "plays_already": W("you already play as {{ name }}"),
    "approve_needs_the_alert": W(
        "an [Approve] takes a newcomer in only as a Reply to the alert that asked for it (anyone "
        "can write a mail From your address), so nobody was taken in",
        "reply to the alert naming the newcomer with [Approve] NAME, or use `mailref player "
        "add`",
    ),
    "reply_is_no_consent": W(
        "your reply to the confirmation does not say yes, so you have not joined (an automatic "
        "answer names the confirmation too)",
        "to join, reply once more with the word yes as its first line",
    ),
    "only_gm_approves": W(
        "only the GM takes in a join that waits for approval",
        "the GM ({{ gm or 'the admin' }}) sends [Approve] NAME, or `mailref player add`",
    ),
    "approve_names_no_one": W(
        "[Approve] names no one", "write the newcomer's name: [Approve] NAME"
    ),
    "judgement_ruled_already": W(
        "judgement {{ number }} was already ruled on{% if judge %} by {{ judge }}{% endif %}; a "
        "reply to it changes nothing",
        CFJ_INSTEAD + "; send [Help] for the other commands",
    ),
    "only_judge_answers": W(
        "that is a reply to judgement {{ number }}; only its judge"
        "{% if judge %} ({{ judge }}){% endif %} answers it, with a mail [Ruling] {{ number }}",
        CFJ_INSTEAD,
    ),
    "cfj_needs_question": W(
        "a call for judgement needs a question", "write the subject as: [CfJ] Your question"
    ),
    "ruling_names_no_judgement": W(
        "say which judgement you rule on", "write the subject as: [Ruling] 3"
    ),
    "effect_names_no_player": W(
        "the effect line naming {{ name|repr }} names no player of this game",
        "write it with a player's name, e.g. Score Alice -10 / Undo the vote of Bob on proposal 3",
    ),
    "unreadable_setting": W(
        "I could not read {{ line|repr }} as a setting",
        "write one per line: digest: daily (or off), zone: Europe/Berlin, discussion: off",
    ),
    "turn_reply_without_changes": W(
        "a reply to the turn mail is a move only with rule changes in it, and I found none",
        "reply with the rule changes (send [Help] for the forms) and, if you like, a first line "
        "`Title: Your title`; or send a new mail with the subject [Proposal] followed by your "
        "title",
    ),
    "turn_reply_not_a_command": W(
        "a reply to the turn mail is not a command", "send [Help] for the commands of this game"
    ),
    "orders_for_past_turn": W(
        "your orders are for turn {{ named }}, which is over; turn {{ now }} is open now, and "
        "nothing was recorded for it",
        "if you mean these orders for turn {{ now }}, send them again with the subject [Orders] "
        "(or [Orders] turn {{ now }})",
    ),
    "orders_for_future_turn": W(
        "your orders are for turn {{ named }}, which has not opened yet: turn {{ now }} is the "
        "current one",
        "send them once turn {{ named }} opens, or with the subject [Orders] for turn {{ now }}",
    ),
    "results_while_open": W(
        "{% if done is not none %}the results of turn {{ done }} went out already, and "
        "{% endif %}turn {{ turn }} is still open for orders until {{ deadline }} ({{ sent }} of "
        "{{ players }} players have sent theirs); results are taken once it closes, and nothing "
        "was sent to the players",
        'the mail "[Turn {{ turn }}] Orders of all players" comes when it closes (at its '
        "deadline, or once every player has ordered); reply to it with the results. To close the "
        "turn early, the operator sets its deadline to the time now: mailref deadline {{ slug }} "
        "set YYYY-MM-DDTHH:MM:SSZ",
    ),
}
