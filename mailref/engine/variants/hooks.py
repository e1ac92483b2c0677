"""The hooks of the concerns `Variant` composes (base.py), each declared once: its name, the
concern that declares it (with the plain case), and what it decides. A variant's own classes
override these and nothing else of the concerns (tests/architecture/test_declared_hooks.py);
its action handlers are declared with `@action`, the lifecycle's hooks in
engine/mechanics/proposals.py."""

from __future__ import annotations

# hook -> (concern, what a variant decides with it)
HOOKS: dict[str, tuple[str, str]] = {
    # the game's start and its rules
    "initial_state": ("Variant", "the state a new game starts with"),
    "initial_rules": ("Variant", "the shipped ruleset"),
    "rules_told": ("Variant", "how a game without a rule list is played, in sentences"),
    "parameter_lines": ("Variant", "the parameters shown beside `rules_told`"),
    "outlook": ("Variant", "whether an open matter is Popular now, and when it is decided"),
    "ballot_words": ("Variant", "the ballot words offered now (BlogNomic: no VETO, no Historian)"),
    "gm_news": ("Variant", "what the GM is told of a new game (a Metadynasty, Dormancy)"),
    # players and the turn order
    "after_join": ("Variant", "what follows a player's joining (a place in the turn order)"),
    "join_news": ("Variant", "what the announcement of a newcomer adds"),
    "new_player_fields": ("Variant", "the fields a new player's record starts with"),
    "before_leaving_order": ("Variant", "what a leaving player's turn becomes"),
    "after_status_change": ("Variant", "what follows a player's going away, return or leaving"),
    # time
    "deadline_times": ("Variant", "when the game next has something to do"),
    "fire_deadlines": ("Variant", "what falls due at a tick"),
    "current_deadline_holder": ("Variant", "the turn or matter whose deadline is extended"),
    "late_players": ("Variant", "who is late, for the GM's digest"),
    "refused_orders": ("Variant", "the orders refused this turn, for the GM's digest"),
    "after_undo": ("Variant", "what an undo gives back besides the state"),
    # what players read
    "rules_for_display": ("Variant", "the rules as shown (Imperial's A and B rules)"),
    "standing_lines": ("Variant", "the standing the rule list shows (scores, the mover)"),
    "score_lines": ("Variant", "the scores as told"),
    "status_lines": ("Variant", "the answer to [Status]"),
    "mail_ruleset": ("Variant", "the ruleset mail after a change"),
    "ruleset_proposals": ("Variant", "the proposals listed beside the rules (Imperial's rule 5)"),
    "help_commands": ("Variant", "the commands [Help] lists, as the rules now read them"),
    # play
    "handle": ("Variant", "what every action does besides its handler"),
    "not_a_command": ("Variant", "the answer to a tag the game has no use for"),
    "check_victory": ("Variant", "whether the game is won, and the announcement"),
    "quorum": ("Variant", "the votes a matter needs, where the game decides by quorum"),
    "ballots_taken": ("Variant", "the ballots the game takes now (a Nomic's lifecycle says)"),
    "translate_vote": ("Variant", "the game's word for a ballot read as FOR, AGAINST, ABSTAIN"),
    "generators": ("Variant", "named random generators besides dice, which [Roll] offers"),
}
