"""An admin's action through the referee's door, what the operator is told of it, and the
mail it queued sent at once."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from mailref import config as config_mod
from mailref.cli.output import refused
from mailref.safe import printable
from mailref.timeutil import utcnow

if TYPE_CHECKING:
    from mailref.door import Outcome
    from mailref.referee import Referee


def act(referee: Referee, args: argparse.Namespace, who: str, action: dict[str, Any]) -> int:
    """Apply ACTION to the game args.slug as WHO, with --reason; say what it did."""
    if args.reason:
        action["reason"] = args.reason
    return done(referee.admin(args.slug, action, who))


def done(outcome: Outcome) -> int:
    """Print what OUTCOME did (exit code 0), or say its refusal (1)."""
    if not outcome.ok:
        return refused(outcome.refusal or outcome.reason, outcome.hint)
    for line in outcome.lines:
        print(printable(line))
    return 0


def warn_unverifiable(referee: Referee, slug: str) -> None:
    """require_auth=on with no [auth] trusted_authserv_ids: no mail can ever be verified (SPEC
    §2.7), so every player's command would be refused; the GM who set it is told at once, not
    by players."""
    if referee.settings.trusted_authserv_ids:
        return
    if not referee.state(slug)["parameters"].get("require_auth"):
        return
    print(
        "note: this configuration trusts no authentication server "
        "([auth] trusted_authserv_ids is empty), so no mail can be verified: "
        "every player's command in this game is refused until that is set "
        f"(or `mailref game set {slug} require_auth=off`)"
    )


def deliver(referee: Referee, args: argparse.Namespace, only: int | None = None) -> tuple[int, int]:
    """Send the queued mail now (only the outgoing mail ONLY, if given); (sent, failed)."""
    from mailref.mail.outbox import Deliverer
    from mailref.outgoing import gm_alerts

    cfg = config_mod.load(args.config)
    return Deliverer(
        referee.store,
        cfg.from_address,
        cfg.smtp_out,
        cfg.outbox_maildir,
        cfg.admin_address,
        alert=gm_alerts(referee.settings),
    ).deliver(utcnow(), only)
