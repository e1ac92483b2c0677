"""Help lists the absence, roll and quit commands every variant takes."""

from __future__ import annotations

import pytest

from support.helpers import Outbox, mail

pytestmark = pytest.mark.spec("2.6")


@pytest.mark.parametrize("variant", ["sidekick", "blognomic", "imperial", "eire", "orders"])
def test_help_lists_the_absence_roll_and_quit_every_variant_takes(referee, smtp, variant):
    """SPEC §2.5: [Help] is "the commands". Imperial's did not list [Away], [Roll] or [Quit],
    BlogNomic's not [Quit], Eire's and the orders game's not [Away] or [Roll], though each
    variant takes them; a player reading the help could not learn how to leave or be away."""
    address = f"{variant}@ref.example"
    referee.create_game(variant, variant, address, name=variant.title(), gm="gm@ref.example")
    box = Outbox(referee)
    box.new()
    smtp(mail("stranger@x.org", address, "[Help]", ""), "stranger@x.org", address)
    (reply,) = box.new()
    said = Outbox.body(reply)
    assert reply["X-Mailref-Kind"] == "help", said
    for tag in ("[Roll]", "[Quit]", ("[Idle]" if variant == "blognomic" else "[Away]")):
        assert tag in said, (tag, said)


@pytest.mark.parametrize("approval", ["auto", "gm"])
def test_help_lists_settings_and_says_the_longest_absence_in_words(referee, smtp, approval):
    """[Help] did not list [Settings] or [Confirm] (nor [Approve] where the GM takes newcomers
    in), and said [Away] reaches "at most max_absence", the parameter's name."""
    address = "nomes@ref.example"
    referee.create_game(
        "nomes", "sidekick", address, gm="gm@ref.example", parameters={"join_approval": approval}
    )
    box = Outbox(referee)
    box.new()
    smtp(mail("stranger@x.org", address, "[Help]", ""), "stranger@x.org", address)
    (reply,) = box.new()
    said = " ".join(Outbox.body(reply).split())
    assert "[Settings] digest: daily" in said and "max_absence" not in said, said
    assert "at most 30 days ahead" in said, said
    assert "[Confirm] Code:" in said, said  # how a [Join] is finished
    assert ("[Approve] NAME" in said) == (approval == "gm")
