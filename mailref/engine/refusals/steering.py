"""What the GM's steering by mail refuses: [Set], [Decide], [Override] and [Office] from
anyone else, not as a Reply to the game's mail, or not read."""

from mailref.engine.refusals.wording import Wording as W

WORDS = {
    "only_gm_by_mail": W(
        "only the GM {{ does }} by mail",
        "the GM ({{ gm or 'the admin' }}) sends {{ example }}, or on the host: "
        "`mailref {{ cli }}`",
    ),
    "only_gm_sets": W(
        "only the GM changes the game's settings by mail",
        "your own settings (digest, reminders) are [Settings]; the GM ({{ gm or 'the admin' }}) "
        "sends [Set] dormant_below=3, or on the host: `mailref game set`",
    ),
    "gm_needs_a_reply": W(
        "a {{ tag }} {{ does }} only as a Reply to mail the game sent you (anyone can write a "
        "mail From your address), so nothing was changed",
        "reply to the game's last mail to you with {{ example }}, or on the host: "
        "`mailref {{ cli }}`",
    ),
    "set_names_no_setting": W(
        "I found no setting in your [Set], so nothing was changed",
        "write one a line, as `mailref game set` takes them: dormant_below=3 (or "
        "dormant_below: 3); [Settings] lists your own",
    ),
    "gm_set_on_the_host": W(
        "the game's GM is changed only on the host, so nothing was changed",
        "`mailref game set {{ slug }} gm=ADDRESS` on the host",
    ),
    "set_value_too_long": W(
        "the value of {{ key }} is longer than {{ most }} characters, so nothing was changed",
        "write a shorter {{ key }}",
    ),
    "require_auth_unverifiable": W(
        "this host trusts no authentication server, so with require_auth on no mail could be "
        "verified, yours included, and every command would be refused; nothing was changed",
        "the host's admin sets [auth] trusted_authserv_ids, then `mailref game set {{ slug }} "
        "require_auth=on` on the host",
    ),
    "decide_unreadable": W(
        "{{ line|repr }} is not a decision",
        "write [Decide] 3 enact, [Decide] 3 fail or [Decide] 3 veto; add reopen to reverse a "
        "result the referee closed: [Decide] 3 enact reopen",
    ),
    "override_unreadable": W(
        "{{ line|repr }} is not a player's vote",
        "write [Override] 3 NAME FOR: the proposal, the player, the vote word",
    ),
    "office_unreadable": W(
        "{{ line|repr }} names no office",
        "write [Office] historian NAME to name its holder, or [Office] historian none to "
        "vacate it",
    ),
}
