"""What any game refuses: its status, its deadlines, the dice, the undo, the limits on one
player's mail, a player's settings, BlogNomic's Idle and dynasty."""

from mailref.engine.refusals.wording import Wording as W

# How a date is written, the hint of every date that could not be read (engine/dates.py).
HOW_DATES = (
    'write a date like "6 Jan", "Jan 6 2027", "2027-01-06" or "Fri", with a time if you like '
    '("Fri 18:00", "6 Jan 9am")'
)
STARTED = (
    "Nomic games are active from creation (the first turn opens once two players are in); "
    "only orders games (eire, orders) are started with `mailref game start`"
)

WORDS = {
    "not_a_command": W(
        "[{{ tag }}] is not a command of {{ game }}{% if title %} ({{ title }}){% endif %}",
        "send [Help] for the commands of this game",
        cli_reason="{% if title %}{{ game }} is a {{ title }} game: `{{ tag|lower }}` does not "
        "apply to it{% else %}`{{ tag|lower }}` does not apply to {{ game }}{% endif %}",
        cli_hint="{% if tag|lower == 'start' %}" + STARTED + "{% else %}"
        "`mailref --help` lists the commands{% endif %}",
    ),
    "game_ended": W(
        "{{ game }} has ended{% if winners %}; won by {{ winners|join(', ') }}{% endif %}",
        "send [Status] or [Rules] to read how it ended",
    ),
    "game_paused": W(
        "this game is paused by its admin",
        "the GM resumes it by mail with [Deadline] resume, or on the host: `mailref game resume`",
    ),
    "game_not_pausable": W("the game is {{ status }}"),
    "game_not_paused": W("the game is not paused"),
    "unknown_timezone": W("unknown time zone {{ zone|repr }}"),
    # WHY: the date reader's own sentence (engine/dates.py).
    "unreadable_date": W("{{ why }}", HOW_DATES),
    "no_deadline_now": W("nothing in this game has a deadline now"),
    "extensions_spent": W(
        "this deadline has been extended {{ times }} times, the most max_extension allows "
        "({{ most }}); it stays {{ deadline }}",
        "the GM can still move it by mail with [Deadline] +2d, or on the host: "
        "`mailref deadline`",
    ),
    "deadline_passed": W("{{ at }} has passed", "name a time ahead"),
    "deadline_too_far_ahead": W("a deadline set by mail is at most a year ahead"),
    "no_request_waiting": W(
        "no request for more time is waiting",
        "to move the deadline yourself, send [Deadline] +2d or [Deadline] Fri 18:00",
    ),
    "which_request": W(
        "{% if named %}no request for more time from {{ name }} is waiting (from: {{ waiting }})"
        "{% else %}several requests for more time are waiting (from: {{ waiting }}){% endif %}",
        "reply to the request's own mail, or write ok NAME (or no NAME)",
    ),
    "unreadable_roll": W(
        "{% if dice %}{{ dice|repr }} is not a roll I can make{% else %}say what to roll"
        "{% endif %}",
        "write [Roll] d6, [Roll] DICE20, [Roll] 2d10 or [Roll] 2d6+1 (N from 1 to 21 digits)"
        "{% for g in generators %}{{ ', or ' if loop.first else ', ' }}[Roll] {{ g }}{% endfor %}",
    ),
    "undo_names_no_entry": W(
        "say which journal entries to undo",
        "write their numbers, as the game's journal page lists them: [Undo] 41 42; or name "
        "what to undo as a ruling does: [Undo] proposal 3, [Undo] the vote of Bob on proposal 3",
        cli_hint="mailref undo SLUG ENTRY...",
    ),
    "only_gm_undoes": W(
        "only the GM undoes journal entries",
        "the GM ({{ gm or 'the admin' }}) sends [Undo] 41 42, or on the host: `mailref undo`",
    ),
    "undo_needs_a_reply": W(
        "an [Undo] voids journal entries only as a Reply to mail the game sent you (anyone can "
        "write a mail From your address), so nothing was undone",
        "reply to the game's last mail to you with [Undo] 41 42, or on the host: `mailref undo`",
    ),
    "results_need_a_reply": W(
        "a turn's results from the GM go to the players only as a Reply to mail the game sent "
        "you (anyone can write a mail From your address), so nothing was published",
        'reply to the game\'s "Orders of all players" mail with the results',
    ),
    "update_needs_a_reply": W(
        "the GM's [Update] writes another's values only as a Reply to mail the game sent you "
        "(anyone can write a mail From your address), so nothing was changed",
        "reply to the game's last mail to you with [Update] Coins of NAME +5",
    ),
    "only_gm_changes_rules": W(
        "only the GM changes the ruleset by mail",
        "to read the ruleset, send [Rules]; to change it, send a [Proposal]",
    ),
    "rule_needs_a_reply": W(
        "a [Rule] changes the ruleset only as a Reply to mail the game sent you (anyone can "
        "write a mail From your address), so no rule was changed",
        "reply to the game's last mail to you with [Rule] and the changes, or on the host: "
        "`mailref rule`",
    ),
    "rule_names_no_change": W(
        "I found no rule change in your [Rule], so no rule was changed",
        "write each change as a proposal does: Amend rule 21 to read: (the text), Enact rule 30 "
        '"Title": (the text), Repeal rule 3.5, In rule 12, replace "old" with "new"',
    ),
    "score_names_no_player": W("\"Score {{ player }} {{ '%+d'|format(amount) }}\": no such player"),
    "no_entry_before": W("there is no journal entry {{ entry }} before this one"),
    "entry_void_already": W("journal entry {{ entry }} is void already"),
    "entry_is_undo": W("journal entry {{ entry }} is itself an undo, which cannot be undone"),
    "no_vote_that_counts": W("{{ player }} has no vote on {{ number }} that counts"),
    "no_proposal_that_counts": W("there is no proposal {{ number }} that counts"),
    "undo_leaves_entry_unapplied": W(
        "it can no longer apply once those entries are void: {{ why }}"
    ),
    # WHY: the ruleset's own sentence (engine/ruleset.py RuleConflict).
    "rule_conflict": W("{{ why }}"),
    "no_setting": W(
        "there is no setting {{ key|repr }}",
        "settings: digest: daily / off, zone: Europe/Berlin, discussion: on / off",
    ),
    "setting_unknown_zone": W(
        "zone: {{ zone|repr }} is not a time zone I know",
        "write a zone name like Europe/Berlin or America/New_York",
    ),
    "setting_not_one_of": W("{{ key }}: {{ value|repr }} is not one of {{ values|join(' / ') }}"),
    "text_too_long": W(
        "the text is {{ size|thousands }} characters long; this game takes at most "
        "{{ limit|thousands }} (max_text)",
        "shorten it; the GM may raise the limit by mail with [Set] max_text=N",
    ),
    "matters_per_day": W(
        "you have opened {{ limit }} matters (proposals, CfJs, DoVs) today, the most this game "
        "takes from one player in a day (matters_per_day); nothing was posted",
        "send it again tomorrow (UTC); the GM may raise the limit by mail with "
        "[Set] matters_per_day=N",
    ),
    "idle_wizard_cannot": W(
        "Idle Wizards are not counted as Wizards: an idle Wizard cannot {{ what }}",
        "send [Unidle] first",
    ),
    "idle_has_no_end": W(
        "in BlogNomic going Idle has no end date: you are Idle until you Unidle",
        'send [Idle] now and [Unidle] when you are back (rule "Idle Wizards")',
    ),
    "not_idle": W("you are not idle"),
    "unidle_too_soon": W(
        "you went Idle {{ idled }}: no Unidle within four days of idling in the same dynasty "
        '(rule "Idle Wizards")',
        "send [Unidle] after {{ until }}",
    ),
    "rejoin_too_soon": W(
        "{{ name }} ceased to be a Wizard {{ left }} and may not become a Wizard again within the "
        'following two weeks (rule "Wizards")',
        "join again after {{ until }}",
    ),
    "only_new_historian_passes": W(
        "only the new Historian may pass the role on, between the enacted DoV and the Ascension "
        "Address"
    ),
    "historian_already": W("you already are the Historian"),
    "only_new_historian_ascends": W(
        "only the new Historian makes the Ascension Address, once a DoV has been enacted"
    ),
    "ascension_waits_downtime": W(
        "the game is in Seasonal Downtime ({{ downtime }}): the Ascension Address waits until "
        '27 December (only "Votable Matters", "Gamestate Tracking" and "Call for Judgement" '
        "actions are allowed)"
    ),
}
