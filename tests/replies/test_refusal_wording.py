# ruff: noqa: E501 (the expected texts are one line each, as they are said)
"""The words of every refusal (mailref/engine/refusals/), each face against its expected text:
rewording one is a change this table shows, and a code without its golden row fails."""

from __future__ import annotations

import pytest

from mailref.engine.context import Refused
from mailref.engine.refusals import CATALOGUE, render

# (code, sample parameters, (reason, hint) in the player's mail[, (reason, hint) at the CLI
# where the operator's terms differ])
GOLDEN = [
    ("no_game", {"slug": "nomes"}, ("there is no game 'nomes'", "")),
    ("game_exists", {"slug": "nomes"}, ("a game 'nomes' exists already", "")),
    (
        "address_taken",
        {"address": "ann@example.org"},
        ("the address ann@example.org belongs to another game", ""),
    ),
    (
        "address_is_referees",
        {"address": "ann@example.org"},
        (
            "the address ann@example.org is the referee's own (from_address)",
            "give the game an address of its own, e.g. nomes@games.example.org",
        ),
    ),
    (
        "unknown_variant",
        {"known": ["blognomic", "eire"], "variant": "chess"},
        ("unknown variant 'chess' (known: blognomic, eire)", ""),
    ),
    (
        "bad_slug",
        {"slug": "nomes"},
        ("'nomes' is not a slug (lower-case letters, digits, - and _)", ""),
    ),
    (
        "bad_timezone_option",
        {"zone": "Mars/Olympus"},
        ("--timezone 'Mars/Olympus' is not a time zone (write e.g. Europe/Paris or UTC)", ""),
    ),
    ("bad_address", {"why": "the reason given"}, ("the reason given", "")),
    (
        "no_database",
        {"path": "/srv/mailref.db", "where": " (configuration /etc/mailref.toml)"},
        ("there is no database at /srv/mailref.db (configuration /etc/mailref.toml)", ""),
    ),
    (
        "no_database_yet",
        {"path": "/srv/mailref.db", "where": " (configuration /etc/mailref.toml)"},
        (
            "there is no database at /srv/mailref.db (configuration /etc/mailref.toml)",
            "`mailref game create` or `mailref serve` creates it",
        ),
    ),
    (
        "backup_not_sqlite",
        {},
        (
            "the database is not SQLite: back it up with its own tools (PostgreSQL: pg_dump -Fc)",
            'docs/operating.md, "Backup and restore"',
        ),
    ),
    (
        "backup_target_exists",
        {"target": "/srv/backup.db"},
        ("/srv/backup.db exists; name a new file", ""),
    ),
    (
        "backup_target_is_database",
        {"target": "/srv/backup.db"},
        ("/srv/backup.db is the database itself", ""),
    ),
    ("no_folder", {"folder": "/srv/none"}, ("there is no folder /srv/none", "")),
    (
        "backup_failed",
        {"source": "/srv/mailref.db", "why": "the reason given"},
        ("cannot back up /srv/mailref.db: the reason given", ""),
    ),
    ("no_message", {"id": 7}, ("there is no message #7", "")),
    (
        "message_not_failed",
        {"id": 7, "status": "sent"},
        ("message #7 is sent; only failed messages are reprocessed (no effect twice)", ""),
    ),
    ("no_outgoing", {"id": 7}, ("there is no outgoing message #7", "")),
    (
        "outgoing_not_resent",
        {"id": 7, "status": "sent"},
        ("outgoing message #7 is sent; it is not sent again", ""),
    ),
    (
        "outgoing_done_already",
        {"id": 7, "status": "sent"},
        ("outgoing message #7 is sent already", ""),
    ),
    (
        "outgoing_being_sent",
        {"by": "host-1:42", "id": 7},
        ("outgoing message #7 is being sent by host-1:42 right now", ""),
    ),
    (
        "outgoing_being_sent_try_later",
        {"by": "host-1:42", "id": 7},
        ("outgoing message #7 is being sent by host-1:42 right now; try again in a minute", ""),
    ),
    (
        "no_site_table",
        {"config": "mailref.toml"},
        ('mailref.toml has no [site] table; add one with dir = "var/site"', ""),
    ),
    (
        "site_unwritable",
        {"dir": "var/site", "why": "the reason given"},
        ("cannot write the pages in var/site ([site] dir): the reason given", ""),
    ),
    (
        "journal_does_not_replay",
        {"why": "the reason given"},
        (
            "this game's journal does not replay (the reason given), so nothing in it can be undone",
            "`mailref replay SLUG` shows where it differs; correct the game by hand",
        ),
    ),
    (
        "not_a_command",
        {"game": "Nomes", "tag": "Start", "title": "Sidekick Nomic"},
        (
            "[Start] is not a command of Nomes (Sidekick Nomic)",
            "send [Help] for the commands of this game",
        ),
        (
            "Nomes is a Sidekick Nomic game: `start` does not apply to it",
            "Nomic games are active from creation (the first turn opens once two players are in); only orders games (eire, orders) are started with `mailref game start`",
        ),
    ),
    (
        "game_ended",
        {"game": "Nomes", "winners": ["Bob"]},
        ("Nomes has ended; won by Bob", "send [Status] or [Rules] to read how it ended"),
    ),
    (
        "game_paused",
        {},
        (
            "this game is paused by its admin",
            "the GM resumes it by mail with [Deadline] resume, or on the host: `mailref game resume`",
        ),
    ),
    ("game_not_pausable", {"status": "sent"}, ("the game is sent", "")),
    ("game_not_paused", {}, ("the game is not paused", "")),
    ("unknown_timezone", {"zone": "Mars/Olympus"}, ("unknown time zone 'Mars/Olympus'", "")),
    (
        "unreadable_date",
        {"why": "I could not read 'blursday' as a date"},
        (
            "I could not read 'blursday' as a date",
            'write a date like "6 Jan", "Jan 6 2027", "2027-01-06" or "Fri", with a time if you like ("Fri 18:00", "6 Jan 9am")',
        ),
    ),
    ("no_deadline_now", {}, ("nothing in this game has a deadline now", "")),
    (
        "extensions_spent",
        {"deadline": "Sat 5 Dec 2026 10:00 UTC, in 4 days", "most": 10, "times": 2},
        (
            "this deadline has been extended 2 times, the most max_extension allows (10); it stays Sat 5 Dec 2026 10:00 UTC, in 4 days",
            "the GM can still move it by mail with [Deadline] +2d, or on the host: `mailref deadline`",
        ),
    ),
    (
        "deadline_passed",
        {"at": "Fri 4 Dec 2026 18:00 UTC"},
        ("Fri 4 Dec 2026 18:00 UTC has passed", "name a time ahead"),
    ),
    ("deadline_too_far_ahead", {}, ("a deadline set by mail is at most a year ahead", "")),
    (
        "no_request_waiting",
        {},
        (
            "no request for more time is waiting",
            "to move the deadline yourself, send [Deadline] +2d or [Deadline] Fri 18:00",
        ),
    ),
    (
        "which_request",
        {"name": "Ann", "named": 3, "waiting": "Ann, Bob"},
        (
            "no request for more time from Ann is waiting (from: Ann, Bob)",
            "reply to the request's own mail, or write ok NAME (or no NAME)",
        ),
    ),
    (
        "unreadable_roll",
        {"dice": "3d0", "generators": ["FRUIT", "COLOUR"]},
        (
            "'3d0' is not a roll I can make",
            "write [Roll] d6, [Roll] DICE20, [Roll] 2d10 or [Roll] 2d6+1 (N from 1 to 21 digits), or [Roll] FRUIT, [Roll] COLOUR",
        ),
    ),
    (
        "undo_names_no_entry",
        {},
        (
            "say which journal entries to undo",
            "write their numbers, as the game's journal page lists them: [Undo] 41 42; or name what to undo as a ruling does: [Undo] proposal 3, [Undo] the vote of Bob on proposal 3",
        ),
        ("say which journal entries to undo", "mailref undo SLUG ENTRY..."),
    ),
    (
        "only_gm_undoes",
        {"gm": "gm@example.org"},
        (
            "only the GM undoes journal entries",
            "the GM (gm@example.org) sends [Undo] 41 42, or on the host: `mailref undo`",
        ),
    ),
    (
        "undo_needs_a_reply",
        {},
        (
            "an [Undo] voids journal entries only as a Reply to mail the game sent you (anyone can write a mail From your address), so nothing was undone",
            "reply to the game's last mail to you with [Undo] 41 42, or on the host: `mailref undo`",
        ),
    ),
    (
        "only_gm_by_mail",
        {
            "does": "decides a proposal",
            "gm": "gm@example.org",
            "example": "[Decide] 3 enact",
            "cli": "proposal enact",
        },
        (
            "only the GM decides a proposal by mail",
            "the GM (gm@example.org) sends [Decide] 3 enact, or on the host: `mailref proposal enact`",
        ),
    ),
    (
        "only_gm_sets",
        {"gm": "gm@example.org"},
        (
            "only the GM changes the game's settings by mail",
            "your own settings (digest, reminders) are [Settings]; the GM (gm@example.org) sends [Set] dormant_below=3, or on the host: `mailref game set`",
        ),
    ),
    (
        "gm_needs_a_reply",
        {
            "tag": "[Set]",
            "does": "changes the game's settings",
            "example": "[Set] dormant_below=3",
            "cli": "game set",
        },
        (
            "a [Set] changes the game's settings only as a Reply to mail the game sent you (anyone can write a mail From your address), so nothing was changed",
            "reply to the game's last mail to you with [Set] dormant_below=3, or on the host: `mailref game set`",
        ),
    ),
    (
        "set_names_no_setting",
        {},
        (
            "I found no setting in your [Set], so nothing was changed",
            "write one a line, as `mailref game set` takes them: dormant_below=3 (or dormant_below: 3); [Settings] lists your own",
        ),
    ),
    (
        "gm_set_on_the_host",
        {"slug": "nomes"},
        (
            "the game's GM is changed only on the host, so nothing was changed",
            "`mailref game set nomes gm=ADDRESS` on the host",
        ),
    ),
    (
        "results_need_a_reply",
        {},
        (
            "a turn's results from the GM go to the players only as a Reply to mail the game "
            "sent you (anyone can write a mail From your address), so nothing was published",
            'reply to the game\'s "Orders of all players" mail with the results',
        ),
    ),
    (
        "update_needs_a_reply",
        {},
        (
            "the GM's [Update] writes another's values only as a Reply to mail the game sent "
            "you (anyone can write a mail From your address), so nothing was changed",
            "reply to the game's last mail to you with [Update] Coins of NAME +5",
        ),
    ),
    (
        "set_value_too_long",
        {"key": "name", "most": 200},
        (
            "the value of name is longer than 200 characters, so nothing was changed",
            "write a shorter name",
        ),
    ),
    (
        "require_auth_unverifiable",
        {"slug": "nomes"},
        (
            "this host trusts no authentication server, so with require_auth on no mail could be "
            "verified, yours included, and every command would be refused; nothing was changed",
            "the host's admin sets [auth] trusted_authserv_ids, then `mailref game set nomes "
            "require_auth=on` on the host",
        ),
    ),
    (
        "decide_unreadable",
        {"line": "3 maybe"},
        (
            "'3 maybe' is not a decision",
            "write [Decide] 3 enact, [Decide] 3 fail or [Decide] 3 veto; add reopen to reverse a result the referee closed: [Decide] 3 enact reopen",
        ),
    ),
    (
        "override_unreadable",
        {"line": "3 Bob PERHAPS"},
        (
            "'3 Bob PERHAPS' is not a player's vote",
            "write [Override] 3 NAME FOR: the proposal, the player, the vote word",
        ),
    ),
    (
        "office_unreadable",
        {"line": "?"},
        (
            "'?' names no office",
            "write [Office] historian NAME to name its holder, or [Office] historian none to vacate it",
        ),
    ),
    (
        "only_gm_changes_rules",
        {"gm": "gm@example.org"},
        (
            "only the GM changes the ruleset by mail",
            "to read the ruleset, send [Rules]; to change it, send a [Proposal]",
        ),
    ),
    (
        "rule_needs_a_reply",
        {},
        (
            "a [Rule] changes the ruleset only as a Reply to mail the game sent you (anyone can write a mail From your address), so no rule was changed",
            "reply to the game's last mail to you with [Rule] and the changes, or on the host: `mailref rule`",
        ),
    ),
    (
        "rule_names_no_change",
        {},
        (
            "I found no rule change in your [Rule], so no rule was changed",
            'write each change as a proposal does: Amend rule 21 to read: (the text), Enact rule 30 "Title": (the text), Repeal rule 3.5, In rule 12, replace "old" with "new"',
        ),
    ),
    (
        "score_names_no_player",
        {"amount": -3, "player": "Bob"},
        ('"Score Bob -3": no such player', ""),
    ),
    ("no_entry_before", {"entry": 4}, ("there is no journal entry 4 before this one", "")),
    ("entry_void_already", {"entry": 4}, ("journal entry 4 is void already", "")),
    (
        "entry_is_undo",
        {"entry": 4},
        ("journal entry 4 is itself an undo, which cannot be undone", ""),
    ),
    (
        "no_vote_that_counts",
        {"number": 12, "player": "Bob"},
        ("Bob has no vote on 12 that counts", ""),
    ),
    ("no_proposal_that_counts", {"number": 12}, ("there is no proposal 12 that counts", "")),
    (
        "undo_leaves_entry_unapplied",
        {"why": "the reason given"},
        ("it can no longer apply once those entries are void: the reason given", ""),
    ),
    ("rule_conflict", {"why": "the reason given"}, ("the reason given", "")),
    (
        "no_setting",
        {"key": "digest"},
        (
            "there is no setting 'digest'",
            "settings: digest: daily / off, zone: Europe/Berlin, discussion: on / off",
        ),
    ),
    (
        "setting_unknown_zone",
        {"zone": "Mars/Olympus"},
        (
            "zone: 'Mars/Olympus' is not a time zone I know",
            "write a zone name like Europe/Berlin or America/New_York",
        ),
    ),
    (
        "setting_not_one_of",
        {"key": "digest", "value": "weekly", "values": ["daily", "off"]},
        ("digest: 'weekly' is not one of daily / off", ""),
    ),
    (
        "text_too_long",
        {"limit": 3, "size": 12345},
        (
            "the text is 12,345 characters long; this game takes at most 3 (max_text)",
            "shorten it; the GM may raise the limit by mail with [Set] max_text=N",
        ),
    ),
    (
        "matters_per_day",
        {"limit": 3},
        (
            "you have opened 3 matters (proposals, CfJs, DoVs) today, the most this game takes from one player in a day (matters_per_day); nothing was posted",
            "send it again tomorrow (UTC); the GM may raise the limit by mail with [Set] matters_per_day=N",
        ),
    ),
    (
        "idle_wizard_cannot",
        {"what": "orders"},
        (
            "Idle Wizards are not counted as Wizards: an idle Wizard cannot orders",
            "send [Unidle] first",
        ),
    ),
    (
        "idle_has_no_end",
        {},
        (
            "in BlogNomic going Idle has no end date: you are Idle until you Unidle",
            'send [Idle] now and [Unidle] when you are back (rule "Idle Wizards")',
        ),
    ),
    ("not_idle", {}, ("you are not idle", "")),
    (
        "unidle_too_soon",
        {"idled": "Tue 1 Dec 2026 10:00 UTC", "until": "Sat 5 Dec 2026 10:00 UTC"},
        (
            'you went Idle Tue 1 Dec 2026 10:00 UTC: no Unidle within four days of idling in the same dynasty (rule "Idle Wizards")',
            "send [Unidle] after Sat 5 Dec 2026 10:00 UTC",
        ),
    ),
    (
        "rejoin_too_soon",
        {"left": "Tue 1 Dec 2026 10:00 UTC", "name": "Ann", "until": "Sat 5 Dec 2026 10:00 UTC"},
        (
            'Ann ceased to be a Wizard Tue 1 Dec 2026 10:00 UTC and may not become a Wizard again within the following two weeks (rule "Wizards")',
            "join again after Sat 5 Dec 2026 10:00 UTC",
        ),
    ),
    (
        "only_new_historian_passes",
        {},
        (
            "only the new Historian may pass the role on, between the enacted DoV and the Ascension Address",
            "",
        ),
    ),
    ("historian_already", {}, ("you already are the Historian", "")),
    (
        "only_new_historian_ascends",
        {},
        ("only the new Historian makes the Ascension Address, once a DoV has been enacted", ""),
    ),
    (
        "ascension_waits_downtime",
        {"downtime": "24–27 December"},
        (
            'the game is in Seasonal Downtime (24–27 December): the Ascension Address waits until 27 December (only "Votable Matters", "Gamestate Tracking" and "Call for Judgement" actions are allowed)',
            "",
        ),
    ),
    (
        "no_matter",
        {"label": "CfJ", "number": 12},
        ("there is no CfJ 12", "send [Status] for the open matters"),
        ("there is no CfJ 12", "`mailref game show SLUG` lists the open matters"),
    ),
    (
        "reopen_still_open",
        {"number": 12},
        (
            "proposal 12 is still open: nothing to reverse",
            "decide it without reopen: [Decide] 12 enact (or fail)",
        ),
        ("proposal 12 is still open: nothing to reverse", "decide it without --reopen"),
    ),
    (
        "reopen_not_reversible",
        {"number": 12, "status": "vetoed"},
        (
            "proposal 12 is vetoed: reopen reverses only a pass into a fail or a fail into a pass",
            "",
        ),
        (
            "proposal 12 is vetoed: --reopen reverses only a pass into a fail or a fail into a "
            "pass",
            "",
        ),
    ),
    (
        "decide_closed",
        {"label": "proposal", "number": 12, "status": "passed", "reverse": "fail"},
        (
            "proposal 12 is closed (passed): there is nothing to decide",
            "to reverse it, send [Decide] 12 fail reopen",
        ),
        (
            "proposal 12 is closed (passed): there is nothing to decide",
            "to reverse it, add --reopen",
        ),
    ),
    (
        "matter_closed_to_votes",
        {"label": "CfJ", "number": 12, "status": "sent"},
        ("CfJ 12 is closed (sent); votes are no longer taken", ""),
    ),
    (
        "repeats_matter",
        {
            "label": "CfJ",
            "number": 12,
            "opened": "Tue 1 Dec 2026 10:00 UTC",
            "title": "Hats",
            "withdraw": True,
        },
        (
            'this repeats your CfJ 12 "Hats" of Tue 1 Dec 2026 10:00 UTC, word for word; it is still open, so no new CfJ was made',
            "to change it, send [Withdraw] 12 and propose it again",
        ),
    ),
    (
        "first_turn_not_open",
        {},
        ("the first turn has not opened yet: it opens once two players are in", ""),
    ),
    (
        "not_your_turn",
        {"mover": "Ann"},
        (
            "it is not your turn: Ann is the mover (rule 8)",
            "wait for the mail telling you it is your turn",
        ),
    ),
    (
        "moved_already",
        {"number": 12},
        ("you already moved this turn with proposal 12 (rule 8: a move is one proposal)", ""),
    ),
    (
        "move_without_changes",
        {"free": 31},
        (
            "a proposal must contain at least one rule change (rule 9)",
            'write e.g.\n  Enact rule 31 "Title":\n  text of the rule\nor Amend rule 12 to read: / Repeal rule 15.',
        ),
    ),
    (
        "move_faults",
        {"conflicts": ["rule 9 does not exist"], "free": 31, "unnumbered": ["Hats"]},
        (
            '2 faults:\n  - new rule "Hats" needs a reference number (rule 10)\n  - your rule changes cannot apply: rule 9 does not exist',
            'write Enact rule 31 "Hats": (31 is free)',
        ),
    ),
    (
        "forfeit_not_yours",
        {"mover": "Ann", "turn_open": True},
        ("you can only forfeit your own turn", "the mover is Ann"),
    ),
    ("moved_already_no_forfeit", {"number": 12}, ("you already moved this turn (proposal 12)", "")),
    (
        "no_withdrawal_in_sidekick",
        {},
        (
            "Nomic Sidekick Nomic has no withdrawal: a move, once mailed, is voted on until every other player has voted or abstained (rules 8 and 11), and the mover's vote is FOR and cannot change (rule 11)",
            "on your turn, before proposing, send [Forfeit] to give up the turn (rule 8); to question a move, send [CfJ] with your question (rule 17)",
        ),
    ),
    (
        "mover_votes_for",
        {"number": 12},
        (
            'you are the mover of proposal 12: your vote is FOR and cannot change (rule 11: "The player moving is assumed to be voting for the proposal")',
            "",
        ),
    ),
    (
        "no_judge_yet",
        {},
        (
            "no judge can be named yet: judgements need a turn order with a present player before the mover",
            "",
        ),
    ),
    ("no_judgement", {"number": 12}, ("there is no judgement 12", "")),
    ("judgement_decided", {"number": 12}, ("judgement 12 was already decided", "")),
    (
        "not_the_judge",
        {"judge": "Bob", "number": 12},
        ("you are not the judge of judgement 12; Bob is", ""),
    ),
    ("ruling_needs_answer", {}, ("a ruling needs its answer in the body", "")),
    (
        "ruling_cannot_apply",
        {"why": "the reason given"},
        ("the ruling's rule changes cannot apply: the reason given", ""),
    ),
    ("no_emperor", {}, ("there is no Emperor in whose name to judge", "")),
    (
        "no_withdrawal_in_imperial",
        {},
        (
            "Imperial Nomic has no withdrawal: a posted proposal is voted on by the other Senators until its deadline and then judged by the Emperor, who may VETO it (rules 6 and 7)",
            "to replace it, send a new [Proposal]: while you have three undecided proposals, a new one replaces your oldest undecided one (rule 12); or raise the matter with [Point of Order] (rule 13)",
        ),
    ),
    (
        "only_emperor_playtests",
        {},
        ("only the Emperor deems when a playtest of the B rules begins or ends (rule 15)", ""),
    ),
    ("only_emperor_proclaims", {}, ("only the Emperor issues Proclamations (rule 8)", "")),
    (
        "proclamation_without_changes",
        {},
        (
            "a Proclamation changes rules: no rule change was found in it",
            'Amend rule 21.3.1 to read: ... / Enact rule 27 "Title": ... / Repeal rule 23.',
        ),
    ),
    (
        "proclamation_cannot_apply",
        {"why": "the reason given"},
        ("the Proclamation cannot apply: the reason given", ""),
    ),
    ("only_emperor_directs", {}, ("only the Emperor issues Directives (rule 8)", "")),
    ("no_point_of_order", {"number": 12}, ("there is no open Point of Order 12", "")),
    ("emperor_answers_points", {}, ("the Emperor answers Points of Order", "")),
    ("untitled_proposal", {}, ("a proposal must contain a title (rule 4)", "")),
    (
        "unsubscribe_request",
        {"game": "Nomes"},
        (
            "your mail asks to stop the mail; it was not passed on to the other players",
            "to get one mail a day instead of each one, send [Settings] digest: daily; to leave "
            "Nomes, send [Quit]",
        ),
    ),
    (
        "changes_cannot_apply",
        {"why": "the reason given"},
        ("your rule changes cannot apply: the reason given", ""),
    ),
    (
        "only_senators_vote",
        {},
        (
            "only Imperial Senators vote; you become one with your first proposal or Point of Order",
            "",
        ),
    ),
    (
        "senators_vote_on_yours",
        {"number": 12},
        ("proposal 12 is yours: the other Senators vote on it (rule 6)", ""),
    ),
    (
        "not_a_vote_here",
        {"word": "MAYBE", "words": ["YES", "NO"]},
        ("MAYBE is not a vote here", "vote YES or NO"),
    ),
    ("only_emperor_judges", {}, ("only the Emperor judges proposals (rule 7)", "")),
    (
        "emperor_has_no_veto",
        {"text": "TIE will judge each proposal and accept or ignore it."},
        (
            'rule 7 now reads "TIE will judge each proposal and accept or ignore it.": it gives '
            "the Emperor no VETO",
            "judge it ACCEPT, or IGNORE citing the rule that allows it",
        ),
    ),
    (
        "not_awaiting_judgement",
        {"number": 12, "status": "judged"},
        ("proposal 12 is not awaiting judgement (it is judged)", ""),
    ),
    (
        "ignore_cites_no_rule",
        {},
        (
            "to ignore a proposal, the condition by which it is ignored must be explicit elsewhere in the ruleset (rule 7): cite that rule",
            "write IGNORE followed by the rule that allows it, e.g. IGNORE under rule 12",
        ),
    ),
    (
        "ignore_condition_not_explicit",
        {"cited": [("12", "missing", ""), ("15", "silent", "Hats")]},
        (
            'to ignore a proposal, the condition by which it is ignored must be explicit elsewhere in the ruleset (rule 7): there is no rule 12 in the current ruleset; rule 15 ("Hats") provides no condition for ignoring a proposal',
            "write IGNORE followed by the rule that allows it, e.g. IGNORE under rule 12",
        ),
    ),
    (
        "no_proposals_in_hiatus",
        {"why": "the reason given"},
        ("no proposals now: the reason given", ""),
    ),
    (
        "dormant",
        {"least": 2},
        (
            'BlogNomic is Dormant with fewer than 2 Wizards: proposals may not be submitted (rule "Dormancy")',
            "it wakes once 2 Wizards play: more players may send [Join], or the GM may lower the number (the game's parameter dormant_below)",
        ),
    ),
    (
        "pending_limit",
        {"most": 10},
        ('you already have 10 proposals pending (rule "Proposals")', ""),
    ),
    ("proposals_per_day", {"most": 10}, ("you already made 10 proposals today (UTC)", "")),
    (
        "needs_section_tag",
        {"numbers": ["1.2", "1.4"], "tag": "Core", "title": "Hats"},
        (
            'a change to the Core Rules (rule 1.2, 1.4) needs the [Core] tag in the title (rule "Tags")',
            "write the subject as: [Proposal] [Core] Hats",
        ),
    ),
    (
        "historian_cannot_declare",
        {},
        ('the Historian cannot declare victory (rule "Victory and Ascension")', ""),
    ),
    (
        "no_dov_before_ascension",
        {},
        ("no DoV may be started between an enacted DoV and its Ascension Address", ""),
    ),
    (
        "dov_in_downtime",
        {"downtime": "24–27 December"},
        ("the game is in Seasonal Downtime (24–27 December)", ""),
    ),
    (
        "dov_cooldown",
        {"until": "Sat 5 Dec 2026 10:00 UTC"},
        (
            "your last DoV failed with an AGAINST vote: no new DoV before Sat 5 Dec 2026 10:00 UTC (120 hours)",
            "",
        ),
    ),
    ("not_your_proposal", {"author": "Ann", "number": 12}, ("proposal 12 is Ann's, not yours", "")),
    ("idle_not_counted", {}, ("idle Wizards are not counted: send [Unidle] first", "")),
    ("only_historian_vetoes", {}, ("only the Historian may VETO, and only a proposal", "")),
    (
        "unknown_parameter",
        {"key": "speed", "known": ["max_text", "turn_length"], "variant": "sidekick"},
        ("unknown parameter 'speed' for sidekick", "known: max_text, turn_length"),
    ),
    (
        "param_not_whole",
        {"key": "digest", "value": "weekly"},
        ("digest: 'weekly' is not a whole number", ""),
    ),
    (
        "param_below_least",
        {"key": "digest", "least": 0, "value": -1},
        ("digest: -1 is less than 0", ""),
    ),
    (
        "param_not_on_off",
        {"key": "digest", "value": "weekly"},
        ("digest: 'weekly' is not on/off", ""),
    ),
    (
        "param_not_duration",
        {"key": "digest", "why": "'soon' is not a duration like 2s, 30m, 12h, 5d or 1d12h"},
        ("digest: 'soon' is not a duration like 2s, 30m, 12h, 5d or 1d12h", ""),
    ),
    (
        "param_span_too_long",
        {"key": "turn_timeout", "value": "999999w"},
        (
            "turn_timeout: '999999w' is longer than a year, the longest span a game runs by",
            "a deadline a year away is as good as none: set a shorter one",
        ),
    ),
    (
        "param_not_month_days",
        {"key": "digest", "value": "weekly"},
        ("digest: 'weekly' is not month-days like 12-24..12-27", ""),
    ),
    (
        "param_not_share",
        {"key": "digest", "value": "weekly"},
        ("digest: 'weekly' is not a share like 1/2", ""),
    ),
    (
        "param_not_rounding",
        {"key": "digest", "value": "weekly"},
        ("digest: 'weekly' is not down or up", ""),
    ),
    (
        "param_not_quorum",
        {"key": "digest", "value": "weekly"},
        ("digest: 'weekly' is not a quorum like 1/2 down +1", ""),
    ),
    (
        "param_not_either",
        {"key": "digest", "value": "weekly", "words": ["FOR", "AGAINST"]},
        ("digest: 'weekly' is not FOR or AGAINST", ""),
    ),
    (
        "param_is_one_of",
        {"key": "digest", "words": ["FOR", "AGAINST"]},
        ("digest is one of FOR, AGAINST", ""),
    ),
    (
        "param_not_time",
        {"key": "digest", "value": "weekly"},
        ("digest: 'weekly' is not a time like 08:00", ""),
    ),
    (
        "bind_no_rules",
        {"slug": "eire"},
        (
            "eire is an orders game: it keeps no rules to bind a parameter to",
            "`mailref game set` its parameters",
        ),
    ),
    ("bind_no_rule", {"rule": "99", "slug": "ours"}, ("there is no rule 99 in ours", "")),
    (
        "bind_not_stated",
        {"key": "win_score", "rule": "102"},
        (
            "rule 102 does not state win_score once and plainly",
            "bind win_score to the rule that does, or `mailref game set` it",
        ),
    ),
    (
        "no_player",
        {"name": "Ann", "players": ["Ann", "Bob"]},
        ("there is no player 'Ann' in this game", "players: Ann, Bob"),
    ),
    (
        "bad_player_name",
        {"name": "Ann"},
        (
            "'Ann' is not a usable player name",
            "add a body line `Name: YourName`: at most 40 characters, of letters, digits, spaces and . ' - _, starting with a letter, digit or _",
        ),
        (
            "'Ann' is not a usable player name",
            "a name is at most 40 characters, of letters, digits, spaces and . ' - _, starting with a letter, digit or _",
        ),
    ),
    (
        "address_plays_already",
        {"address": "ann@example.org", "name": "Ann"},
        ("ann@example.org already plays as Ann", ""),
    ),
    (
        "name_taken",
        {"looks_like": "Ann", "name": "Ann"},
        (
            "the name Ann is taken (it looks like Ann)",
            "choose another with a body line `Name: ...`",
        ),
        ("the name Ann is taken (it looks like Ann)", "choose another name"),
    ),
    (
        "name_of_one_who_left",
        {"name": "Ann", "owner": "Ann"},
        (
            "the name Ann belongs to Ann, who left the game; only one of Ann's addresses can rejoin under it",
            "choose another with a body line `Name: ...`",
        ),
        (
            "the name Ann belongs to Ann, who left the game; only one of Ann's addresses can rejoin under it",
            "choose another name",
        ),
    ),
    ("only_of_yourself", {"name": "Ann"}, ("you can only say that of yourself, not of Ann", "")),
    (
        "confirms_nothing_sent",
        {},
        (
            "this mail answers no confirmation I sent to this address",
            "reply to the latest confirmation mail itself (a plain Reply), or copy its `Code:` line into a mail with the subject [Confirm]",
        ),
    ),
    (
        "no_join_waiting",
        {"address": "ann@example.org", "days": 7},
        (
            "no join from ann@example.org is waiting for its confirmation (a confirmation can be answered for 7 days)",
            "send [Join] with a body line `Name: YourName` to ask again",
        ),
    ),
    (
        "no_join_to_approve",
        {"name": "Ann", "waiting": "Ann, Bob"},
        ("no confirmed join of 'Ann' is waiting for the GM", "waiting: A, n, n, ,,  , B, o, b"),
    ),
    (
        "joins_per_day",
        {"days": 7, "game": "Nomes", "limit": 3},
        (
            "Nomes has taken in 3 newcomers today, the most it takes in a day (joins_per_day)",
            "send it again tomorrow (UTC): a confirmation you have can be answered for 7 days",
        ),
    ),
    (
        "unreadable_absence",
        {"dates": "next blursday"},
        (
            "I could not read 'next blursday' as the dates of an absence",
            'write a date like "6 Jan", "Jan 6 2027", "2027-01-06" or "Fri", with a time if you like ("Fri 18:00", "6 Jan 9am")',
        ),
    ),
    (
        "absence_ends_before_it_begins",
        {"end": "Thu 3 Dec 2026 23:59 UTC"},
        (
            "the absence would end (Thu 3 Dec 2026 23:59 UTC) before it begins",
            'write a date like "6 Jan", "Jan 6 2027", "2027-01-06" or "Fri", with a time if you like ("Fri 18:00", "6 Jan 9am")',
        ),
    ),
    (
        "absence_too_far_ahead",
        {},
        (
            "an absence can be set at most a year ahead",
            'write a date like "6 Jan", "Jan 6 2027", "2027-01-06" or "Fri", with a time if you like ("Fri 18:00", "6 Jan 9am")',
        ),
    ),
    (
        "absence_too_long",
        {"end": "Thu 3 Dec 2026 23:59 UTC", "lasts": "40d", "longest": "30d"},
        (
            "an absence is at most 30d (max_absence), and this one would last 40d, until Thu 3 Dec 2026 23:59 UTC",
            "send [Away] until a date within 30d, and another when it ends",
        ),
    ),
    (
        "absence_past_bound",
        {"longest": "30d", "why": "'999999999d' is longer than ten years"},
        (
            "an absence is at most 30d (max_absence), and '999999999d' is longer than ten years",
            "send [Away] for 30d or less, and another when it ends",
        ),
    ),
    ("game_full", {"most": 10}, ("the game has its 10 players", "")),
    (
        "choose_color",
        {"color": "Green", "free": ["Red", "Blue"], "given": "Mauve"},
        ("Green is taken; the free colors: Red, Blue", "add a body line `Color: Red`"),
        ("Green is taken; the free colors: Red, Blue", "add `--choice color=Red`"),
    ),
    (
        "choose_tribe",
        {},
        (
            "choose a Tribe: Plainsmen, Merfolk, Woodkin or Sidhe",
            "add a body line `Tribe: Woodkin`",
        ),
        ("choose a Tribe: Plainsmen, Merfolk, Woodkin or Sidhe", "add `--choice tribe=Woodkin`"),
    ),
    (
        "choose_origin",
        {
            "free": ["Red", "Blue"],
            "given": "Mauve",
            "origin": "Tara",
            "rule": "on the coast",
            "taken": False,
            "tribe": "Merfolk",
        },
        (
            "choose an Origin Land (a Merfolk must start on the coast); free for Merfolk: Red, Blue",
            "add a body line `Origin: Red` (a land free for Merfolk)",
        ),
        (
            "choose an Origin Land (a Merfolk must start on the coast); free for Merfolk: Red, Blue",
            "add `--choice origin=Red` (a land free for Merfolk)",
        ),
    ),
    (
        "no_withdrawal_of_orders",
        {"final": "refuse", "game": "Nomes"},
        (
            'Nomes has no withdrawal: orders once sent cannot be changed (Eire: "You cannot edit your orders once you\'ve send the post"); only orders the referee refused may be sent again, until the deadline',
            "send [Status] for the turn and its deadline",
        ),
    ),
    ("game_not_forming", {"status": "sent"}, ("the game is sent, not forming", "")),
    ("too_few_to_start", {"least": 2}, ("a game needs at least 2 players to start", "")),
    (
        "orders_too_late",
        {"closed": "Fri 4 Dec 2026 18:00 UTC", "turn": 3},
        (
            "turn 3 closed Fri 4 Dec 2026 18:00 UTC, and the GM is adjudicating it: orders sent now are too late for it",
            "send them again when turn 4 opens (the GM's results open it).",
        ),
    ),
    (
        "no_turn_open",
        {"forming": True},
        ("no turn is open for orders (the game is still forming)", ""),
    ),
    ("only_active_order", {}, ("only active players order", "")),
    (
        "no_bold_orders",
        {"example": "**Army Tara -> Meath**", "loose": ["Army Tara -> Meath"]},
        (
            'I found no bold text in your own words: only bold text is an order; "Army Tara -> Meath" looks like one, but is not in bold',
            "**Army Tara -> Meath** or <b>…</b> or [b]…[/b]",
        ),
    ),
    (
        "orders_without_tag",
        {"count": 2},
        (
            "your mail is mostly bold lines (2 read as orders) and its subject has no [Orders] "
            "tag, so it was neither taken as orders nor relayed to the other players",
            "add [Orders] to the subject to send them as your orders; words to the players "
            "without bold reach them",
        ),
    ),
    (
        "orders_sent_again",
        {"at": "Fri 4 Dec 2026 18:00 UTC"},
        (
            "these are the orders you sent Fri 4 Dec 2026 18:00 UTC, word for word: they are recorded and stand as they were (orders cannot be edited once sent)",
            "",
        ),
    ),
    (
        "orders_are_final",
        {},
        ("you cannot edit your orders once you've sent them (this game's orders are final)", ""),
    ),
    ("only_gm_posts_results", {}, ("only the GM posts results, from the GM's address", "")),
    ("no_turn_awaits_results", {}, ("no turn is waiting for results", "")),
    (
        "only_gm_publishes",
        {},
        ("only the GM publishes a turn's results, from the GM's address", ""),
    ),
    (
        "no_results_waiting",
        {"preview": False},
        ("no results are waiting to be published (this game has gm_preview off)", ""),
    ),
    (
        "not_a_command_here",
        {"tag": "Proposal"},
        ("[Proposal] is not a command here", "send [Help] for the commands"),
    ),
    (
        "no_command_in_reply",
        {},
        (
            "I found no command in your reply, so nothing was done",
            "to act, send a mail whose subject starts with a command tag; send [Help] for them",
        ),
    ),
    (
        "command_in_body",
        {"line": "[Set] dormant_below=3"},
        (
            "I found no command in your reply, so nothing was done",
            'a command\'s tag goes at the start of the subject: put "[Set] dormant_below=3" in the subject, any lines below it in the body, and send it again',
        ),
    ),
    (
        "forwarded_proposal",
        {"title": "Hats"},
        (
            "your mail forwards a proposal (Hats): a forwarded text is not submitted as your proposal (its author is whoever wrote it), so nothing was posted",
            "to propose it yourself, send a new mail (not a forward) with the subject [Proposal] Hats and the text in its body",
        ),
    ),
    (
        "forwarded_vote",
        {"number": 12},
        (
            "your mail forwards proposal 12: a forward is not a vote, so no vote was recorded",
            "to vote, reply to the proposal's announcement, or send a new mail with the subject [Vote] 12 and your vote on a line of its own",
        ),
    ),
    (
        "forwarded_command",
        {"tag": "Proposal"},
        (
            "your mail forwards a [Proposal] mail: a forwarded mail is not a command, so nothing was done",
            "to act yourself, send a new mail (not a forward) with the subject [Proposal] … and your own words in its body; send [Help] for the commands",
        ),
    ),
    (
        "player_has_left",
        {"game": "Nomes", "name": "Ann"},
        (
            "you (Ann) have left Nomes; its commands are for its players",
            "send [Join] to play again ([Help] is answered for anyone)",
        ),
    ),
    (
        "not_a_players_address",
        {"address": "ann@example.org", "game": "Nomes", "gm": "gm@example.org", "name": "Ann"},
        (
            "ann@example.org is not an address of a player of Nomes",
            "if you are Ann, write from the address you play from, or ask the GM (gm@example.org) to add this one",
        ),
    ),
    (
        "gm_not_a_player",
        {"game": "Nomes", "tag": "Settings"},
        (
            "you are the GM of Nomes, not one of its players: [Settings] is a player's command",
            "to play as well, send [Join] with a body line `Name: YourName`; [Status], [Rules] and [Help] show you the game",
        ),
    ),
    (
        "not_a_player",
        {"address": "ann@example.org", "game": "Nomes", "gm": "gm@example.org"},
        (
            "ann@example.org is not a player of Nomes",
            "send [Join] with a body line `Name: YourName` to play; if you play from another address, write from that one or ask the GM (gm@example.org) to add this one",
        ),
    ),
    (
        "too_long_to_read",
        {"lines": 200, "most": 10, "parts": 1000, "what": "orders"},
        (
            "your mail is longer than the referee reads (10 characters, lines of 200, 1,000 MIME parts), so these orders were not read",
            "send shorter orders",
        ),
    ),
    (
        "proposal_too_long_to_read",
        {"lines": 200, "most": 10, "parts": 1000},
        (
            "your mail is longer than the referee reads (10 characters, lines of 200, 1,000 MIME parts), so this proposal was not read",
            "send a shorter proposal",
        ),
    ),
    (
        "text_only_attached",
        {"what": "proposal"},
        (
            "your proposal's text is in an attachment, and the referee reads only the mail's own text (nothing was posted)",
            "put the text in the body of the mail itself, not in an attachment",
        ),
    ),
    (
        "proposal_needs_title",
        {},
        ("a proposal needs a title", "write the subject as: [Proposal] Your title"),
    ),
    (
        "withdraw_names_no_proposal",
        {},
        ("say which proposal to withdraw", "write the subject as: [Withdraw] 12"),
    ),
    (
        "unreadable_rule_changes",
        {"faults": [(3, "Enact rule:", "no rule number")], "free": 31},
        (
            'I could not read a rule change on line 3 ("Enact rule:"): no rule number',
            'Enact rule 31 "Title":\n<text>\nAmend rule 12 to read:\n<text>\nIn rule 12, replace "old words" with "new words".\nRepeal rule 15.\nRetitle rule 12 to "New title".',
        ),
    ),
    (
        "unreadable_proclamation",
        {"faults": [(3, "no rule number"), (5, "no text")]},
        (
            "I could not read 2 rule changes:\n  - on line 3: no rule number\n  - on line 5: no text",
            "",
        ),
    ),
    (
        "matter_closed",
        {"matter": "proposal 1 (passed)"},
        ("proposal 1 (passed) is closed; votes are no longer taken", ""),
    ),
    (
        "no_ballot",
        {
            "how": "write FOR or AGAINST",
            "ignored": [("FOR them", "quoted")],
            "near_misses": ["I'm for it"],
            "number": 12,
            "until": "Sat 5 Dec 2026 10:00 UTC",
        },
        (
            "No vote found for proposal 12 in your own words (quoted text does not count); votes on it are taken until Sat 5 Dec 2026 10:00 UTC",
            'write FOR or AGAINST\nNot read as a ballot: "I\'m for it"\nSet aside: "FOR them" (quoted)',
        ),
    ),
    (
        "not_a_vote_word",
        {"line": "FOR!!", "word": "MAYBE", "words": ["FOR", "AGAINST"]},
        ('"FOR!!": MAYBE is not a vote in this game', "vote FOR, AGAINST"),
    ),
    (
        "no_deadline_command",
        {"gm": "gm@example.org"},
        (
            "I found no deadline command in your mail",
            "write one of these after the tag or on a line of its own: +2d (extend), Fri 18:00 (a new deadline), pause, resume, or ok / no to a player's request",
        ),
    ),
    (
        "only_gm_moves_deadline",
        {},
        (
            "only the GM moves the deadline or pauses the game",
            "to ask the GM for more time, send [Deadline] +1d, and why on a line below",
        ),
    ),
    (
        "deadline_length_past_bound",
        {"value": "+99999999d", "most": "365 days"},
        (
            "'+99999999d' is more than 365 days: a deadline moves by mail at most 365 days ahead",
            "ask for a shorter time, and again when it runs short",
        ),
    ),
    (
        "ascension_needs_theme",
        {},
        (
            "your Ascension Address needs its theme",
            "add a line `Theme: your theme` (or send a mail with the subject [Ascension] Your theme)",
        ),
    ),
    (
        "ascension_names_theme",
        {},
        (
            "an Ascension Address names the dynasty's theme",
            "write the subject as: [Ascension] Your theme",
        ),
    ),
    (
        "historian_names_no_one",
        {},
        ("name the Wizard who becomes Historian", "write the subject as: [Historian] Ben"),
    ),
    (
        "judge_names_no_proposal",
        {},
        (
            "say which proposal you judge",
            "write the subject as: [Judge] 12, and ACCEPT, VETO or IGNORE in the body",
        ),
    ),
    (
        "no_judgement_found",
        {},
        (
            "I found no judgement: ACCEPT, VETO or IGNORE must come first",
            "ACCEPT\nVETO\nIGNORE under rule 12 (the rule that allows ignoring it)",
        ),
    ),
    (
        "playtest_says_neither",
        {},
        (
            "say whether the playtest starts or ends",
            "write the subject as: [Playtest] start, or [Playtest] end",
        ),
    ),
    (
        "reply_to_ruleset",
        {},
        (
            "your reply to the ruleset mail has no command in it, so nothing was done",
            "send a mail with the subject [Rules] alone for the rule list; send [Help] for the commands",
        ),
    ),
    ("plays_already", {"name": "Ann"}, ("you already play as Ann", "")),
    (
        "approve_needs_the_alert",
        {},
        (
            "an [Approve] takes a newcomer in only as a Reply to the alert that asked for it "
            "(anyone can write a mail From your address), so nobody was taken in",
            "reply to the alert naming the newcomer with [Approve] NAME, or use `mailref player "
            "add`",
        ),
    ),
    (
        "reply_is_no_consent",
        {},
        (
            "your reply to the confirmation does not say yes, so you have not joined (an "
            "automatic answer names the confirmation too)",
            "to join, reply once more with the word yes as its first line",
        ),
    ),
    (
        "only_gm_approves",
        {"gm": "gm@example.org"},
        (
            "only the GM takes in a join that waits for approval",
            "the GM (gm@example.org) sends [Approve] NAME, or `mailref player add`",
        ),
    ),
    (
        "approve_names_no_one",
        {},
        ("[Approve] names no one", "write the newcomer's name: [Approve] NAME"),
    ),
    (
        "judgement_ruled_already",
        {"judge": "Bob", "number": 12},
        (
            "judgement 12 was already ruled on by Bob; a reply to it changes nothing",
            "to ask another question, send a new mail with the subject [CfJ] Your question; send [Help] for the other commands",
        ),
    ),
    (
        "only_judge_answers",
        {"judge": "Bob", "number": 12},
        (
            "that is a reply to judgement 12; only its judge (Bob) answers it, with a mail [Ruling] 12",
            "to ask another question, send a new mail with the subject [CfJ] Your question",
        ),
    ),
    (
        "cfj_needs_question",
        {},
        ("a call for judgement needs a question", "write the subject as: [CfJ] Your question"),
    ),
    (
        "ruling_names_no_judgement",
        {},
        ("say which judgement you rule on", "write the subject as: [Ruling] 3"),
    ),
    (
        "effect_names_no_player",
        {"name": "Ann"},
        (
            "the effect line naming 'Ann' names no player of this game",
            "write it with a player's name, e.g. Score Alice -10 / Undo the vote of Bob on proposal 3",
        ),
    ),
    (
        "unreadable_setting",
        {"line": "FOR!!"},
        (
            "I could not read 'FOR!!' as a setting",
            "write one per line: digest: daily (or off), zone: Europe/Berlin, discussion: off",
        ),
    ),
    (
        "turn_reply_without_changes",
        {},
        (
            "a reply to the turn mail is a move only with rule changes in it, and I found none",
            "reply with the rule changes (send [Help] for the forms) and, if you like, a first line `Title: Your title`; or send a new mail with the subject [Proposal] followed by your title",
        ),
    ),
    (
        "turn_reply_not_a_command",
        {},
        ("a reply to the turn mail is not a command", "send [Help] for the commands of this game"),
    ),
    (
        "orders_for_past_turn",
        {"named": 3, "now": 4},
        (
            "your orders are for turn 3, which is over; turn 4 is open now, and nothing was recorded for it",
            "if you mean these orders for turn 4, send them again with the subject [Orders] (or [Orders] turn 4)",
        ),
    ),
    (
        "orders_for_future_turn",
        {"named": 3, "now": 4},
        (
            "your orders are for turn 3, which has not opened yet: turn 4 is the current one",
            "send them once turn 3 opens, or with the subject [Orders] for turn 4",
        ),
    ),
    (
        "results_while_open",
        {
            "deadline": "Sat 5 Dec 2026 10:00 UTC, in 4 days",
            "done": 2,
            "players": 3,
            "sent": 1,
            "slug": "nomes",
            "turn": 3,
        },
        (
            "the results of turn 2 went out already, and turn 3 is still open for orders until Sat 5 Dec 2026 10:00 UTC, in 4 days (1 of 3 players have sent theirs); results are taken once it closes, and nothing was sent to the players",
            'the mail "[Turn 3] Orders of all players" comes when it closes (at its deadline, or once every player has ordered); reply to it with the results. To close the turn early, the operator sets its deadline to the time now: mailref deadline nomes set YYYY-MM-DDTHH:MM:SSZ',
        ),
    ),
    (
        "update_empty",
        {},
        (
            "your [Update] names no alteration",
            "write one alteration a line: `Thaum -3`, `Thaum of Bob +2`, `Hand: Fox, Owl`, `Home = Wilderness`, each with an optional `because ...`; nothing was changed",
        ),
    ),
    (
        "update_unreadable",
        {"line": "more Thaum please"},
        (
            "this line is no alteration: more Thaum please",
            "write one alteration a line: `Thaum -3`, `Thaum of Bob +2`, `Hand: Fox, Owl`, `Home = Wilderness`, each with an optional `because ...`; nothing was changed",
        ),
    ),
    (
        "no_column",
        {"column": "Gold", "line": "Gold +1", "columns": ["Hand", "Home", "Thaum"]},
        (
            'there is no column "Gold" in the gamestate (Gold +1)',
            "the columns are Hand, Home, Thaum; nothing was changed",
        ),
    ),
    (
        "column_no_owner",
        {"name": "Bob", "line": "Thaum of Bob +2"},
        ('there is no player "Bob" to alter (Thaum of Bob +2)', "nothing was changed"),
    ),
    (
        "column_unreadable",
        {"column": "Thaum", "kind": "integer", "value": "lots", "line": "Thaum + lots"},
        ('Thaum holds integer values; "lots" is none (Thaum + lots)', "nothing was changed"),
    ),
    (
        "column_below",
        {"column": "Thaum", "value": -3, "bound": 0, "line": "Thaum -3"},
        ("Thaum may not go below 0: it would be -3 (Thaum -3)", "nothing was changed"),
    ),
    (
        "column_above",
        {"column": "Thaum", "value": 21, "bound": 20, "line": "Thaum +21"},
        ("Thaum may not go above 20: it would be 21 (Thaum +21)", "nothing was changed"),
    ),
    (
        "column_too_long",
        {"column": "Hand", "count": 5, "most": 4, "line": "Hand: A, B, C, D, E"},
        ("Hand holds at most 4: it would hold 5 (Hand: A, B, C, D, E)", "nothing was changed"),
    ),
    (
        "column_repeats",
        {"column": "Hand", "line": "Hand: Fox, Fox"},
        ("Hand may not hold one thing twice (Hand: Fox, Fox)", "nothing was changed"),
    ),
    (
        "column_lacks",
        {"column": "Hand", "name": "Ann", "value": "Fox", "line": "Hand - Fox"},
        ('Hand of Ann holds no "Fox" to take away (Hand - Fox)', "nothing was changed"),
    ),
    (
        "column_not_a_choice",
        {"column": "Mood", "choices": ["Happy", "Sad"], "value": "Angry", "line": "Mood = Angry"},
        ('Mood is one of Happy, Sad, not "Angry" (Mood = Angry)', "nothing was changed"),
    ),
    (
        "column_not_a_player",
        {"column": "Patron", "value": "Zed", "line": "Patron = Zed"},
        ('Patron names a player; "Zed" is none (Patron = Zed)', "nothing was changed"),
    ),
    (
        "trade_unreadable",
        {"line": "let's swap"},
        (
            "this is no trade: let's swap",
            "write `[Trade] Ben: my Fox for your Owl`, or `[Trade] Accept 3` to accept trade 3 (`[Trade] Decline 3` declines it)",
        ),
    ),
    (
        "no_such_roll",
        {"number": 9, "count": 2, "line": "Thaum +roll 9"},
        (
            "there is no roll 9 (Thaum +roll 9)",
            "the rolls are numbered 1 to 2; nothing was changed",
        ),
    ),
    (
        "roll_not_yours",
        {"number": 1, "player": "Ann", "line": "Thaum +roll 1"},
        (
            "roll 1 is Ann's, not yours (Thaum +roll 1)",
            "use a roll of your own: send [Roll] first; nothing was changed",
        ),
    ),
    (
        "roll_used",
        {"number": 1, "line": "Thaum +roll 1"},
        (
            "roll 1 was used already (Thaum +roll 1)",
            "a roll is used once: send [Roll] again; nothing was changed",
        ),
    ),
    (
        "roll_other_dice",
        {"number": 1, "dice": "1d6", "named": "DICE20", "line": "Thaum +DICE20 from roll 1"},
        (
            "roll 1 was of 1d6, not DICE20 (Thaum +DICE20 from roll 1)",
            "name the dice it was rolled with, or just `roll 1`; nothing was changed",
        ),
    ),
    (
        "trade_no_answer",
        {"number": 1},
        (
            "your reply to trade 1 neither accepts nor declines it",
            "reply with yes (or ok, accept) to accept it, or no (or decline) to decline it; the one who offered it withdraws it with no",
        ),
    ),
    (
        "trade_with_oneself",
        {},
        ("a trade is with another player", ""),
    ),
    (
        "trade_not_held",
        {"name": "Ann", "item": "Owl"},
        ('Ann holds no "Owl"', "both items must be in their holders' hands to trade"),
    ),
    (
        "no_trade_for_you",
        {"number": 1},
        ("there is no trade 1 offered to you", "send [Status] for the open trades"),
    ),
    (
        "trade_closed",
        {"number": 1, "status": "expired"},
        (
            "trade 1 has expired: it was not accepted in time",
            "offer it again with a new [Trade]",
        ),
    ),
    (
        "transfer_not_an_amount",
        {"column": "Hand", "line": "1 Hand to Ben"},
        (
            "Hand is no amount to transfer (1 Hand to Ben)",
            "only an asset or a number column is transferred; nothing was changed",
        ),
    ),
    (
        "asset_by_transfer_only",
        {"column": "Coins", "line": "Coins +5"},
        (
            "Coins is an asset: it moves only by [Transfer] (Coins +5)",
            "send `[Transfer] 5 Coins to Ben`; the GM alone writes it directly; nothing was changed",
        ),
    ),
    (
        "transfer_not_positive",
        {"line": "0 Thaum to Ben"},
        ("only a positive amount is transferred (0 Thaum to Ben)", "nothing was changed"),
    ),
    (
        "transfer_to_oneself",
        {"line": "1 Thaum to Ann"},
        ("a transfer is to another player (1 Thaum to Ann)", "nothing was changed"),
    ),
    (
        "transfer_unreadable",
        {"line": "some Thaum to Ben"},
        (
            "this line is no transfer: some Thaum to Ben",
            "write `[Transfer] 5 Thaum to Ben`, one transfer a line, each with an optional `because ...`; nothing was changed",
        ),
    ),
    (
        "column_kind_unknown",
        {"kind": "money", "kinds": ["integer", "text", "list", "choice", "player"]},
        ('there is no kind of column "money"', "the kinds are integer, text, list, choice, player"),
    ),
    (
        "column_name_unreadable",
        {"name": "Gold Coins"},
        ('a column\'s name is one word of letters, digits and dashes, not "Gold Coins"', ""),
    ),
    (
        "column_exists",
        {"name": "Gold"},
        ("there is a column Gold already", ""),
    ),
    (
        "column_needs_choices",
        {"name": "Mood"},
        ("column Mood is one of a set: name its values", "give --choices A,B,C"),
    ),
    (
        "only_gm_declares_columns",
        {},
        ("only the GM declares a column", "a rule declares one by its words once enacted"),
    ),
    (
        "column_unwritten",
        {},
        (
            "write the column's name and kind: [Column] Gold integer",
            "the kinds are integer, asset, text, list, choice, player; body lines `Default: 10`, `Min: 0`, `Max: 20`, `Max length: 4`, `Choices: Happy, Sad`",
        ),
    ),
    (
        "column_not_yours",
        {"name": "Ben", "line": "Thaum of Ben +1"},
        (
            "in this game you update only your own values, not those of Ben (Thaum of Ben +1)",
            "nothing was changed",
        ),
    ),
    (
        "only_gm_vacates",
        {"gm": "gm@example.org"},
        (
            "only the GM opens a seat to a substitute",
            "the GM (gm@example.org) sends [Vacate] NAME, or `mailref player vacate`",
        ),
    ),
    (
        "only_gm_scores",
        {"gm": "gm@example.org"},
        (
            "only the GM changes a score by mail",
            "the GM (gm@example.org) sends [Score] NAME +N, or `mailref score`",
        ),
    ),
    (
        "score_unreadable",
        {"line": "Bob plus two"},
        (
            "'Bob plus two' is not a score change",
            'write [Score] NAME +N, NAME -N or NAME =N, with the reason after "because"',
        ),
    ),
    (
        "score_needs_a_reply",
        {},
        (
            "a [Score] changes a score only as a Reply to mail the game sent you (anyone can write a mail From your address), so no score was changed",
            "reply to the game's last mail to you with [Score] NAME +N, or use `mailref score`",
        ),
    ),
    (
        "vacate_names_no_one",
        {},
        ("[Vacate] names no one", "write whose seat to open: [Vacate] NAME"),
    ),
    (
        "vacate_needs_a_reply",
        {},
        (
            "a [Vacate] opens a seat only as a Reply to mail the game sent you (anyone can write a mail From your address), so no seat was opened",
            "reply to the game's last mail to you with [Vacate] NAME, or use `mailref player vacate`",
        ),
    ),
    ("seat_open_already", {"name": "Maeve"}, ("the seat of Maeve is open already", "")),
    (
        "no_open_seat",
        {"name": "Finn", "open": ["Maeve"]},
        ("the seat of 'Finn' is not open to a substitute", "open seats: Maeve"),
    ),
    (
        "takeover_names_no_seat",
        {},
        ("[Takeover] names no seat", "write whose seat you take: [Takeover] NAME"),
    ),
    (
        "seat_is_open",
        {"name": "Maeve"},
        (
            "the seat of Maeve is open to a substitute: its mail no longer plays it",
            "[Status], [Rules], [History] and [Stats] still answer; write to the GM to have it back",
        ),
    ),
    (
        "no_record",
        {"name": "Zed", "known": ["Finn", "Maeve"]},
        ("nobody named 'Zed' has played this game", "who has: Finn, Maeve"),
    ),
    (
        "watching_off",
        {"game": "Eire"},
        (
            "Eire is not open to watchers (its GM set watching off)",
            "ask the GM, or send [Join] to play",
        ),
    ),
    (
        "player_watches_already",
        {"game": "Eire"},
        ("you play Eire: its announcements and results come to you already", ""),
    ),
    (
        "watches_already",
        {"game": "Eire"},
        ("you watch Eire already", "send [Unwatch] to stop getting its mail"),
    ),
    (
        "watchers_full",
        {"game": "Eire", "most": 500},
        ("Eire has 500 watchers, as many as it takes", ""),
    ),
    (
        "no_watch_waiting",
        {"address": "wanda@x.org", "days": 7},
        (
            "no request to watch from wanda@x.org is waiting for its confirmation (a confirmation can be answered for 7 days)",
            "send [Watch] to ask again",
        ),
    ),
    (
        "watch_reply_is_no_consent",
        {},
        (
            "your reply to the confirmation does not say yes, so you do not watch the game (an automatic answer names the confirmation too)",
            "to watch, reply once more with the word yes as its first line",
        ),
    ),
    (
        "not_watching",
        {"address": "wanda@x.org", "game": "Eire"},
        ("wanda@x.org does not watch Eire", "send [Watch] to follow its announcements"),
    ),
    (
        "watchers_do_not_play",
        {"game": "Eire"},
        (
            "you watch Eire: a watcher gets its announcements and results, and does not vote, order or send press",
            "send [Join] with a body line `Name: YourName` to play; [Unwatch] to stop watching",
        ),
    ),
    (
        "press_off",
        {"game": "Eire"},
        ("Eire has no press (its GM set press off)", ""),
    ),
    (
        "grey_press_off",
        {"game": "Eire"},
        (
            "Eire has no grey press: press here always names its sender",
            "send it again without `grey`",
        ),
    ),
    (
        "press_without_text",
        {},
        ("your press has no words of your own, so nothing was sent", ""),
    ),
    (
        "press_to_nobody",
        {"name": "Brian", "players": ["Maeve", "Oisin"]},
        (
            "Brian is not a player of this game, so your press went to nobody",
            "name players after the tag: [Press] to Maeve, Oisin (or to all)",
        ),
    ),
    (
        "press_names_no_one",
        {"players": ["Maeve", "Oisin"]},
        (
            "your press names nobody to send it to, so it went to nobody",
            "name players after the tag: [Press] to Maeve, Oisin (or to all)",
        ),
    ),
    (
        "press_grey_reply",
        {},
        (
            "grey press does not name its sender, so a Reply to it reaches nobody: yours went "
            "to nobody",
            "answer with [Press] to the players you mean (or to all)",
        ),
    ),
    (
        "press_holds_orders",
        {"count": 1},
        (
            "your press holds bold text, which is read as orders: orders go with [Orders], so nothing was sent",
            "send your orders in a mail with the subject [Orders], and your press without bold",
        ),
    ),
    (
        "no_game_to_end",
        {"status": "forming"},
        ("the game is forming: only a game under way ends by agreement", ""),
    ),
    (
        "not_a_survivor",
        {"name": "Brian", "survivors": ["Finn", "Maeve"]},
        ("Brian is not a player still in the game", "the players still in it: Finn, Maeve"),
    ),
    (
        "draw_of_one",
        {"name": "Finn"},
        (
            "a draw is shared by two players or more; Finn alone would be a concession",
            "send [Concede] to Finn",
        ),
    ),
    (
        "concede_to_self",
        {},
        ("you cannot concede to yourself", "send [Concede] to NAME, the player you concede to"),
    ),
    (
        "concede_names_no_one",
        {},
        ("a concession names the one player it ends the game for", "send [Concede] to NAME"),
    ),
    (
        "ending_open",
        {"label": "draw 1"},
        (
            "draw 1 is still open to votes: one draw or concession at a time",
            "vote on it by replying YES or NO to its mail",
        ),
    ),
    (
        "no_ending_open",
        {"number": 2},
        (
            "no draw or concession 2 is open to votes",
            "send [Status] for the game; [Draw] or [Concede] to NAME to propose one",
        ),
    ),
    (
        "ending_voter_left",
        {"label": "draw 1"},
        ("you are no longer in the game, so you have no vote on draw 1", ""),
    ),
    (
        "ending_voter_came_later",
        {"label": "draw 1"},
        (
            "draw 1 was proposed before you joined, so its vote is for those who played then",
            "",
        ),
    ),
    (
        "no_end_ballot",
        {"number": 1, "tag": "draw"},
        (
            "I found no YES or NO on draw 1 as the first word of your reply",
            "reply again with YES or NO on its first line",
        ),
    ),
]


def test_every_code_has_its_golden_row():
    assert sorted(row[0] for row in GOLDEN) == sorted(CATALOGUE)


@pytest.mark.parametrize("row", GOLDEN, ids=[row[0] for row in GOLDEN])
def test_each_face_says_the_refusal_as_written(row):
    code, params, mail, *cli = row
    assert render(code, params, "mail") == mail
    assert render(code, params, "cli") == (cli[0] if cli else mail)
    assert render(code, params, "alert") == (mail[0], "")


def test_the_exception_says_its_mail_face():
    r = Refused("no_player", name="Zed", players=["Ann", "Bob"])
    assert (r.code, r.reason, r.hint) == (
        "no_player",
        "there is no player 'Zed' in this game",
        "players: Ann, Bob",
    )
    assert str(r) == r.reason


def test_a_refusal_is_only_ever_a_code_of_the_catalogue():
    with pytest.raises(KeyError):
        Refused("there is no player 'Zed' in this game")
