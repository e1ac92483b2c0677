"""The ways players word a switch of the voting policy: per switch, the sentence forms a rule
states it in and the word each says. A form matches within one sentence (no full stop or
semicolon between its parts); quotes around a ballot's word may be straight or curly."""

from __future__ import annotations

from mailref.engine.parameters import Switch

_Q = r"[\"“”']?"
_PASS = r"(?:pass(?:es|ed)?|is adopted|carries|is carried|is enacted|succeeds)"
_FAIL = r"(?:fail(?:s|ed)?|is rejected|is defeated|is lost)"
_TIED = r"(?:\btie[sd]?\b|\bvotes are (?:equal|even|level)\b|\bequal number)"
_ON_A_TIE = r"\b(?:on|in|with|at|by) (?:a|the case of a|the event of a) tie\b"

# Sidekick rule 12: "... or if the number of “for” votes and “against” votes is tied, the
# proposal is said to have failed."
TIE = Switch(
    (_TIED + r"[^.;]*?\b" + _PASS + r"\b", "passes"),
    (_TIED + r"[^.;]*?\b" + _FAIL + r"\b", "fails"),
    (r"\b" + _PASS + r"\b[^.;]*?" + _ON_A_TIE, "passes"),
    (r"\b" + _FAIL + r"\b[^.;]*?" + _ON_A_TIE, "fails"),
    (r"\bat least as many " + _Q + r"(?:for|yes)" + _Q + r" votes as " + _Q, "passes"),
)

_COUNTED_AS = r"\b(?:count(?:s|ed)?|considered|treated|taken|deemed|regarded)\s+as\s+(?:an?\s+)?"
_ABSTAINING = r"\b(?:abstain\w*|abstentions?)\b" + _Q

# What an ABSTAIN counts as where votes are counted (Sidekick rule 12 counts only "for" and
# "against"; a new rule may say otherwise): "A vote of abstaining is counted as a vote against."
ABSTAIN = Switch(
    (
        _ABSTAINING + r"[^.;]*?" + _COUNTED_AS + r"(?:votes?\s+)?(?:of\s+)?" + _Q + r"against\b",
        "against",
    ),
    (_ABSTAINING + r"[^.;]*?" + _COUNTED_AS + r"(?:votes?\s+)?(?:of\s+)?" + _Q + r"for\b", "for"),
    (_ABSTAINING + r"[^.;]*?\b(?:is|are) (?:ignored|disregarded|left out)\b", "nothing"),
    silent="nothing",
)

# Whether ABSTAIN is a ballot at all where the game's rules offer none (BlogNomic, Imperial): a
# new rule that allows it ("Wizards may also vote ABSTAIN"), or counts it, makes it one.
ABSTAIN_VOTE = Switch(
    (
        r"\b(?:may|can) (?:also )?(?:vote|cast(?: a vote of)?|use(?: the voting icon)?)\s+"
        + _Q
        + r"ABSTAIN\b",
        "taken",
    ),
    (r"\bABSTAIN\b" + _Q + r" is (?:also )?an? (?:valid )?(?:vote|voting icon)\b", "taken"),
    (_ABSTAINING + r"[^.;]*?" + _COUNTED_AS, "taken"),
    silent="none",
)

_MOVER = r"\b(?:player moving|moving player|mover|player whose turn it is)\b"

# Whether the mover's vote is fixed (Sidekick rule 11: "The player moving is assumed to be voting
# “for” the proposal") or their own to cast; a rule 11 that no longer says so leaves it their own.
MOVER_VOTE = Switch(
    (
        _MOVER
        + r"[^.;]*?\b(?:is|are) (?:assumed|considered|deemed|taken) to (?:be )?vot\w* "
        + _Q
        + r"for\b",
        "for",
    ),
    (_MOVER + r"[^.;]*?\bvotes? (?:like|as) (?:any|every) other\b", "own"),
    # "may not vote" matches too, and its negation leaves the switch to the GM
    (_MOVER + r"[^.;]*?\b(?:must|may|shall) (?:not )?(?:also )?vote\b", "own"),
    (r"\ball players,? including the " + _MOVER + r",? (?:must|may|shall) vote\b", "own"),
    silent="own",
)

_ONE = r"\b(?:person|player)"
_MOVING = r"(?:the )?(?:person|player) (?:who is )?(?:currently )?(?:moving|whose turn it is)"

# Who judges (Sidekick rule 17: "The person preceeding the person currently moving becomes the
# “Judge,”"): the nearest present player before the mover, or after.
JUDGE = Switch(
    (_ONE + r" (?:preceeding|preceding|before|previous to) " + _MOVING, "before"),
    (_ONE + r" whose turn (?:preceeds|precedes|comes before|came before)", "before"),
    (_ONE + r" (?:following|after|next after|succeeding) " + _MOVING, "after"),
    (_ONE + r" whose turn (?:follows|comes after|is next)", "after"),
    # rule 17's fallback for an away judge: "then the preceeding person becomes the Judge"
    (r"\bthe (?:preceeding|preceding|previous) (?:person|player)\b", "before"),
    (r"\bthe (?:next|following|succeeding) (?:person|player)\b", "after"),
)

_SENATORS = r"(?:Imperial )?Senators?"

# How many YES pass a proposal to the Emperor (Imperial rule 6: "there is a majority of Imperial
# Senators who have sent in a vote of YES"): a majority of those entitled, or one.
MAJORITY = Switch(
    (
        r"\ba majority of " + _SENATORS + r" (?:who have )?(?:sent in )?(?:a vote of )?YES",
        "majority",
    ),
    (r"\b(?:one|a single|1) YES(?: vote)? (?:suffices|is enough|is sufficient)", "one"),
    (
        r"\bat least one "
        + _SENATORS
        + r" (?:who )?(?:has |have )?(?:sent in )?(?:a vote of )?YES",
        "one",
    ),
)

_DEFERENTIAL = r"\bDEFERENTIAL\b" + _Q
_AS_A_VOTE_OF = r"(?:(?:a|an)\s+)?(?:(?:valid\s+)?votes?\s+)?(?:of\s+)?" + _Q

# What a DEFERENTIAL counts as (BlogNomic rule 1.6: "all votes of DEFERENTIAL ... are instead
# considered to be valid and the same as the Historian's Vote"): the Historian's vote, AGAINST,
# or nothing.
DEFERENTIAL = Switch(
    (_DEFERENTIAL + r"[^.;]*?\bthe same as the Historian'?s'? Vote\b", "historian"),
    (_DEFERENTIAL + r"[^.;]*?\bthe same as " + _AS_A_VOTE_OF + r"AGAINST\b", "against"),
    (_DEFERENTIAL + r"[^.;]*?" + _COUNTED_AS + _AS_A_VOTE_OF + r"AGAINST\b", "against"),
    (
        _DEFERENTIAL
        + r"[^.;]*?\b(?:is|are) (?:ignored|disregarded|left out|counted as nothing"
        + r"|invalid|never valid)\b",
        "nothing",
    ),
    (_DEFERENTIAL + r"[^.;]*?\bcounts? (?:as|for) nothing\b", "nothing"),
)

# Whether the author's AGAINST on their own proposal kills it (BlogNomic rule 1.9: "When a Wizard
# casts a vote AGAINST their own Proposal ..., this renders the Proposal Self-Killed"); a rule
# 1.9 that no longer says so lets that AGAINST count as any other.
SELF_KILL = Switch(
    (r"\b(?:renders?|makes?) (?:the|their|that|such a) Proposal Self-Killed\b", "kills"),
    (
        r"\bAGAINST (?:on )?(?:their|his|her|its author'?s?) own Proposal[^.;()]*?\bSelf-Kill",
        "kills",
    ),
    silent="counts",
)

# Who is Historian when a DoV is enacted (BlogNomic rule 1.12: "a new Dynasty begins with the
# Wizard who made the DoV as its Historian"): its author, or nobody (a Metadynasty).
DOV_HISTORIAN = Switch(
    (
        r"\bnew Dynasty begins with the Wizard who (?:made|posted|wrote) (?:the|that) DoV as its "
        r"Historian\b",
        "author",
    ),
    (
        r"\b(?:author|poster|maker) of (?:the|that|an enacted) DoV becomes (?:the )?Historian\b",
        "author",
    ),
    (r"\bnew Dynasty begins (?:with|without) (?:no|any) Historian\b", "none"),
    (r"\bnew Dynasty begins as a Metadynasty\b", "none"),
)

_EMPEROR = r"(?:TIE|IE|the (?:Imperial )?(?:Emperor|Empress|Emporer))"

# Whether the Emperor may VETO (Imperial rule 7: "TIE will judge each proposal submitted and
# accept, veto or ignore it"); a rule 7 that names no veto leaves accept and ignore.
VETO = Switch(
    (r"\b(?:judge|accept)\w*\b[^.;]*?\bveto(?:es|ed)?\b", "allowed"),
    (_EMPEROR + r" may veto\b", "allowed"),
    silent="refused",
)

# How one becomes a Senator (Imperial rule 3: "A person then becomes an Imperial Senator at the
# submission of their first Proposal or Point of Order"): by a first submission, or only by the
# Emperor's Directive.
SENATORS = Switch(
    (
        r"\bbecomes? an? " + _SENATORS + r"[^.;]*?\b(?:submission of|submit\w*) (?:their|his|her|"
        r"a) first\b",
        "submission",
    ),
    (_SENATORS + r"[^.;]*?\bonly by (?:an? )?(?:Imperial )?Directive\b", "directive"),
    (
        r"\bonly (?:an? )?(?:Imperial )?Directive[^.;]*?\b(?:makes?|names?|appoints?) " + _SENATORS,
        "directive",
    ),
)
