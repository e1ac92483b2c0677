"""What joining, naming, absence and an Eire newcomer's choices refuse."""

from mailref.engine.refusals.games import HOW_DATES
from mailref.engine.refusals.wording import Wording as W

NAME_RULE = (
    "at most 40 characters, of letters, digits, spaces and . ' - _, starting with a letter, "
    "digit or _"
)

WORDS = {
    "no_player": W(
        "there is no player {{ name|repr }} in this game", "players: {{ players|join(', ') }}"
    ),
    "bad_player_name": W(
        "{{ name|repr }} is not a usable player name",
        "add a body line `Name: YourName`: " + NAME_RULE,
        cli_hint="a name is " + NAME_RULE,
    ),
    "address_plays_already": W("{{ address }} already plays as {{ name }}"),
    "name_taken": W(
        "the name {{ name }} is taken"
        "{% if looks_like %} (it looks like {{ looks_like }}){% endif %}",
        "choose another with a body line `Name: ...`",
        cli_hint="choose another name",
    ),
    "name_of_one_who_left": W(
        "the name {{ name }} belongs to {{ owner }}, who left the game; only one of "
        "{{ owner }}'s addresses can rejoin under it",
        "choose another with a body line `Name: ...`",
        cli_hint="choose another name",
    ),
    "only_of_yourself": W("you can only say that of yourself, not of {{ name }}"),
    "confirms_nothing_sent": W(
        "this mail answers no confirmation I sent to this address",
        "reply to the latest confirmation mail itself (a plain Reply), or copy its `Code:` line "
        "into a mail with the subject [Confirm]",
    ),
    "no_join_waiting": W(
        "no join from {{ address }} is waiting for its confirmation (a confirmation can be "
        "answered for {{ days }} days)",
        "send [Join] with a body line `Name: YourName` to ask again",
    ),
    "no_join_to_approve": W(
        "no confirmed join of {{ name|repr }} is waiting for the GM",
        "waiting: {{ waiting|join(', ') or 'none' }}",
    ),
    "joins_per_day": W(
        "{{ game }} has taken in {{ limit }} newcomers today, the most it takes in a day "
        "(joins_per_day)",
        "send it again tomorrow (UTC): a confirmation you have can be answered for {{ days }} days",
    ),
    "unreadable_absence": W(
        "I could not read {{ dates|repr }} as the dates of an absence", HOW_DATES
    ),
    "absence_ends_before_it_begins": W(
        "the absence would end ({{ end }}) before it begins", HOW_DATES
    ),
    "absence_too_far_ahead": W("an absence can be set at most a year ahead", HOW_DATES),
    "absence_too_long": W(
        "an absence is at most {{ longest }} (max_absence), and this one would last {{ lasts }}, "
        "until {{ end }}",
        "send [Away] until a date within {{ longest }}, and another when it ends",
    ),
    "absence_past_bound": W(
        "an absence is at most {{ longest }} (max_absence), and {{ why }}",
        "send [Away] for {{ longest }} or less, and another when it ends",
    ),
    "game_full": W("the game has its {{ most }} players"),
    # Eire's choices: a [Join]'s "Color: Green" body line is `player add --choice color=Green`.
    "choose_color": W(
        "{% if color %}{{ color }} is taken{% elif given %}{{ given }} is not a color of this game"
        "{% else %}choose a Color{% endif %}; the free colors: {{ free|join(', ') }}",
        "add a body line `Color: {{ free[0] if free else 'Red' }}`",
        cli_hint="add `--choice color={{ free[0] if free else 'Red' }}`",
    ),
    "choose_tribe": W(
        "choose a Tribe: Plainsmen, Merfolk, Woodkin or Sidhe",
        "add a body line `Tribe: Woodkin`",
        cli_hint="add `--choice tribe=Woodkin`",
    ),
    "choose_origin": W(
        "choose an Origin Land ({% if taken %}{{ origin }} is taken{% elif origin %}a {{ tribe }} "
        "must start {{ rule }}{% elif given %}there is no land {{ given|repr }}{% else %}you gave "
        "none{% endif %}); free for {{ tribe }}: {{ free|join(', ') }}",
        "add a body line `Origin: {{ free[0] if free else 'LAND' }}` (a land free for {{ tribe }})",
        cli_hint="add `--choice origin={{ free[0] if free else 'LAND' }}` (a land free for "
        "{{ tribe }})",
    ),
}
