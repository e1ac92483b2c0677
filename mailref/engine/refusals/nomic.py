"""What the Nomic games refuse: moves and proposals, votes, judgements, the Emperor's acts,
BlogNomic's proposals and Declarations of Victory."""

from mailref.engine.refusals.wording import Wording as W

IGNORE = (
    "to ignore a proposal, the condition by which it is ignored must be explicit elsewhere in the "
    "ruleset (rule 7): "
)
UNNUMBERED = 'new rule "{{ t }}" needs a reference number (rule 10)'
CANNOT_APPLY = "your rule changes cannot apply: {{ f }}"

WORDS = {
    "no_matter": W(
        "there is no {{ label }} {{ number }}",
        "send [Status] for the open matters",
        cli_hint="`mailref game show SLUG` lists the open matters",
    ),
    "reopen_still_open": W(
        "proposal {{ number }} is still open: nothing to reverse",
        "decide it without reopen: [Decide] {{ number }} enact (or fail)",
        cli_hint="decide it without --reopen",
    ),
    "reopen_not_reversible": W(
        "proposal {{ number }} is {{ status }}: reopen reverses only a pass into a fail or a "
        "fail into a pass",
        cli_reason="proposal {{ number }} is {{ status }}: --reopen reverses only a pass into a "
        "fail or a fail into a pass",
    ),
    "decide_closed": W(
        "{{ label }} {{ number }} is closed ({{ status }}): there is nothing to decide",
        "{% if reverse %}to reverse it, send [Decide] {{ number }} {{ reverse }} reopen{% endif %}",
        cli_hint="{% if reverse %}to reverse it, add --reopen{% endif %}",
    ),
    "matter_closed_to_votes": W(
        "{{ label }} {{ number }} is closed ({{ status }}); votes are no longer taken"
    ),
    "repeats_matter": W(
        'this repeats your {{ label }} {{ number }} "{{ title }}" of {{ opened }}, word for word; '
        "it is still open, so no new {{ label }} was made",
        "{% if withdraw %}to change it, send [Withdraw] {{ number }} and propose it again"
        "{% endif %}",
    ),
    "first_turn_not_open": W("the first turn has not opened yet: it opens once two players are in"),
    "not_your_turn": W(
        "it is not your turn: {{ mover or 'nobody' }} is the mover (rule 8)",
        "wait for the mail telling you it is your turn",
    ),
    "moved_already": W(
        "you already moved this turn with proposal {{ number }} (rule 8: a move is one proposal)"
    ),
    "move_without_changes": W(
        "a proposal must contain at least one rule change (rule 9)",
        'write e.g.\n  Enact rule {{ free }} "Title":\n  text of the rule\nor Amend rule 12 to '
        "read: / Repeal rule 15.",
    ),
    # UNNUMBERED: the titles of new rules without a number; CONFLICTS: the ruleset's own words.
    "move_faults": W(
        "{% if (unnumbered + conflicts)|length == 1 %}"
        "{% for t in unnumbered %}" + UNNUMBERED + "{% endfor %}"
        "{% for f in conflicts %}" + CANNOT_APPLY + "{% endfor %}"
        "{% else %}{{ (unnumbered + conflicts)|length }} faults:"
        "{% for t in unnumbered %}\n  - " + UNNUMBERED + "{% endfor %}"
        "{% for f in conflicts %}\n  - " + CANNOT_APPLY + "{% endfor %}{% endif %}",
        '{% if unnumbered %}write Enact rule {{ free }} "{{ unnumbered[0] }}": ({{ free }} is '
        "free){% endif %}",
    ),
    "forfeit_not_yours": W(
        "you can only forfeit your own turn",
        "the mover is {{ mover if turn_open else 'nobody yet' }}",
    ),
    "moved_already_no_forfeit": W("you already moved this turn (proposal {{ number }})"),
    "no_withdrawal_in_sidekick": W(
        "Nomic Sidekick Nomic has no withdrawal: a move, once mailed, is voted on until every "
        "other player has voted or abstained (rules 8 and 11), and the mover's vote is FOR and "
        "cannot change (rule 11)",
        "on your turn, before proposing, send [Forfeit] to give up the turn (rule 8); to question "
        "a move, send [CfJ] with your question (rule 17)",
    ),
    "mover_votes_for": W(
        "you are the mover of proposal {{ number }}: your vote is FOR and cannot change (rule 11: "
        '"The player moving is assumed to be voting for the proposal")'
    ),
    "no_judge_yet": W(
        "no judge can be named yet: judgements need a turn order with a present player before "
        "the mover"
    ),
    "no_judgement": W("there is no judgement {{ number }}"),
    "judgement_decided": W("judgement {{ number }} was already decided"),
    "not_the_judge": W("you are not the judge of judgement {{ number }}; {{ judge }} is"),
    "ruling_needs_answer": W("a ruling needs its answer in the body"),
    "ruling_cannot_apply": W("the ruling's rule changes cannot apply: {{ why }}"),
    "no_emperor": W("there is no Emperor in whose name to judge"),
    "no_withdrawal_in_imperial": W(
        "Imperial Nomic has no withdrawal: a posted proposal is voted on by the other Senators "
        "until its deadline and then judged by the Emperor, who may VETO it (rules 6 and 7)",
        "to replace it, send a new [Proposal]: while you have three undecided proposals, a new "
        "one replaces your oldest undecided one (rule 12); or raise the matter with [Point of "
        "Order] (rule 13)",
    ),
    "only_emperor_playtests": W(
        "only the Emperor deems when a playtest of the B rules begins or ends (rule 15)"
    ),
    "only_emperor_proclaims": W("only the Emperor issues Proclamations (rule 8)"),
    "proclamation_without_changes": W(
        "a Proclamation changes rules: no rule change was found in it",
        'Amend rule 21.3.1 to read: ... / Enact rule 27 "Title": ... / Repeal rule 23.',
    ),
    "proclamation_cannot_apply": W("the Proclamation cannot apply: {{ why }}"),
    "only_emperor_directs": W("only the Emperor issues Directives (rule 8)"),
    "no_point_of_order": W("there is no open Point of Order {{ number }}"),
    "emperor_answers_points": W("the Emperor answers Points of Order"),
    "untitled_proposal": W("a proposal must contain a title (rule 4)"),
    "changes_cannot_apply": W("your rule changes cannot apply: {{ why }}"),
    # BY_DIRECTIVE: rule 3 now makes Senators only by the Emperor's Directive.
    "only_senators_vote": W(
        "only Imperial Senators vote; "
        "{% if by_directive is defined and by_directive %}"
        "rule 3 now makes Senators only by the Emperor's Directive"
        "{% else %}you become one with your first proposal or Point of Order{% endif %}"
    ),
    "senators_vote_on_yours": W(
        "proposal {{ number }} is yours: the other Senators vote on it (rule 6)"
    ),
    # WORDS: the ballots as players are told them (the voting policy's offered words).
    "not_a_vote_here": W(
        "{{ word }} is not a vote here", "vote {{ words[:-1]|join(', ') }} or {{ words[-1] }}"
    ),
    "only_emperor_judges": W("only the Emperor judges proposals (rule 7)"),
    # TEXT: rule 7 as it now reads, which names no veto.
    "emperor_has_no_veto": W(
        'rule 7 now reads "{{ text }}": it gives the Emperor no VETO',
        "judge it ACCEPT, or IGNORE citing the rule that allows it",
    ),
    "not_awaiting_judgement": W(
        "proposal {{ number }} is not awaiting judgement"
        "{% if status is not none %} (it is {{ status }}){% endif %}"
    ),
    "ignore_cites_no_rule": W(
        IGNORE + "cite that rule",
        "write IGNORE followed by the rule that allows it, e.g. IGNORE under rule 12",
    ),
    # CITED: (rule number, what is wrong with citing it, its title) for each rule cited.
    "ignore_condition_not_explicit": W(
        IGNORE + "{% for number, wrong, title in cited %}{{ '' if loop.first else '; ' }}"
        "{% if wrong == 'missing' %}there is no rule {{ number }} in the current ruleset"
        "{% elif wrong == 'inactive' %}rule {{ number }} is a B rule, not in force outside a "
        "playtest{% elif wrong == 'asks' %}rule {{ number }} asks for the condition; it must be "
        'explicit elsewhere{% else %}rule {{ number }} ("{{ title }}") provides no condition for '
        "ignoring a proposal{% endif %}{% endfor %}",
        "write IGNORE followed by the rule that allows it, e.g. IGNORE under rule 12",
    ),
    "no_proposals_in_hiatus": W("no proposals now: {{ why }}"),
    "dormant": W(
        "BlogNomic is Dormant with fewer than {{ least }} Wizards: proposals may not be "
        'submitted (rule "Dormancy")',
        "it wakes once {{ least }} Wizards play: more players may send [Join], or the GM may "
        "lower the number (the game's parameter dormant_below)",
    ),
    "pending_limit": W('you already have {{ most }} proposals pending (rule "Proposals")'),
    "proposals_per_day": W("you already made {{ most }} proposals today (UTC)"),
    "needs_section_tag": W(
        "a change to the {{ tag }} Rules (rule {{ numbers|join(', ') }}) needs the [{{ tag }}] "
        'tag in the title (rule "Tags")',
        "write the subject as: [Proposal] [{{ tag }}] {{ title }}",
    ),
    "historian_cannot_declare": W(
        'the Historian cannot declare victory (rule "Victory and Ascension")'
    ),
    "no_dov_before_ascension": W(
        "no DoV may be started between an enacted DoV and its Ascension Address"
    ),
    "dov_in_downtime": W("the game is in Seasonal Downtime ({{ downtime }})"),
    "dov_cooldown": W(
        "your last DoV failed with an AGAINST vote: no new DoV before {{ until }} (120 hours)"
    ),
    "not_your_proposal": W("proposal {{ number }} is {{ author }}'s, not yours"),
    "idle_not_counted": W("idle Wizards are not counted: send [Unidle] first"),
    "only_historian_vetoes": W("only the Historian may VETO, and only a proposal"),
}
