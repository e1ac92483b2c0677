"""A tag of another variant is no command here, whatever its body."""

from __future__ import annotations

import pytest

from support.helpers import EIRE_PLAYERS, Outbox, mail, player_addr
from support.host_fixture import EIRE, NOMES
from support.joining import confirm_waiting

pytestmark = pytest.mark.spec("2.5")


def test_a_tag_of_another_variant_is_no_command_here_whatever_its_body(referee, host):
    """SPEC §2.5: a tag that does not apply to this variant gets an error saying so, before its
    body is read: [Judge] in Eire or Sidekick is not "no ACCEPT, VETO or IGNORE found", [Vote]
    in Eire is not "no vote found", and [Proposal] is named as the player wrote it."""
    for name, choices in EIRE_PLAYERS.items():
        host(
            mail(player_addr(name), EIRE, "[Join]", f"Name: {name}\n{choices}\n"),
            player_addr(name),
            EIRE,
        )
        confirm_waiting(referee)
    host(mail("alice@x.org", NOMES, "[Join]", "Name: Alice"), "alice@x.org", NOMES)
    confirm_waiting(referee)
    box = Outbox(referee)
    box.new()
    finn = player_addr("Finn")
    for subject, body, said in [
        ("[Judge] 1", "Nonsense", "[Judge] is not a command of Eire."),
        ("[Vote] 1", "Perhaps", "[Vote] is not a command of Eire."),
        ("[Proposal] Peace", "Let us all be friends.", "[Proposal] is not a command of Eire."),
    ]:
        host(mail(finn, EIRE, subject, body), finn, EIRE)
        (err,) = box.new()
        assert err["X-Mailref-Kind"] == "error" and said in Outbox.body(err), Outbox.body(err)
        assert err["X-Mailref-Refusal"] == "not_a_command"
    host(mail("alice@x.org", NOMES, "[Judge] 1", "Nonsense"), "alice@x.org", NOMES)
    (err,) = box.new()
    assert "[Judge] is not a command of Nomes (Nomic Sidekick Nomic)." in Outbox.body(
        err
    ), Outbox.body(err)
    assert referee.state("eire")["proposals"] == [] and referee.state("nomes")["proposals"] == []
