"""Mail to the GM and to a judge is counted against one allowance per address, game and UTC
day, whatever its kind (SPEC §2.2): 60 forged `[Deadline] +1d` from throwaway players gave the
GM 60 alerts, and eight throwaway players opening ten CfJs each gave the real judge 80 `judge`
mails in a day. Past `mails_per_player_day` the requests wait, and come together in one mail,
"N requests wait for you", at the reader's digest or the turn of the day."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from support.helpers import Outbox, assert_replays, mail

pytestmark = pytest.mark.spec("2.2")

G = "nomes@ref.example"
GM = "gm@ref.example"
LIMIT = 10
TURN_OF_THE_DAY = datetime(2026, 12, 2, 0, 0, 1, tzinfo=UTC)  # the clock starts at 10:00


def _game(referee, names: list[str]) -> None:
    referee.create_game("nomes", "sidekick", G, gm=GM, parameters={"mails_per_player_day": LIMIT})
    for n in names:
        referee.admin(
            "nomes",
            {"type": "player_add", "name": n, "address": f"{n.lower()}@x.example", "more": []},
            "admin",
        )


def test_forged_requests_for_more_time_wait_for_the_gm_in_one_mail(referee, smtp, outbox, clock):
    """Thirty throwaway players' forged requests: the GM gets at most the day's allowance
    (the last saying the rest wait), then one mail listing every request still waiting, each
    with how to answer it; a request replaced meanwhile is updated there, not added."""
    spam = [f"Spam{i}" for i in range(30)]
    _game(referee, ["Alice", "Bob", *spam])
    outbox.new()
    for n in spam:
        smtp(mail(f"{n.lower()}@x.example", G, "[Deadline] +1d"), "forger@evil.example")
    smtp(mail("spam29@x.example", G, "[Deadline] +2d"), "forger@evil.example")  # replaced
    to_gm = outbox.to(GM, outbox.new())
    assert len(to_gm) <= LIMIT, [str(m["Subject"]) for m in to_gm]
    assert "further requests wait" in str(to_gm[-1]["Subject"])
    assert "mails_per_player_day" in Outbox.body(to_gm[-1])
    asked = sum("asks for" in str(m["Subject"]) for m in to_gm)
    clock.now = TURN_OF_THE_DAY  # before the GM's digest at 08:00
    referee.tick()
    (fold,) = outbox.to(GM, outbox.new())
    assert f"{30 - asked} requests wait for you" in str(fold["Subject"])
    body = " ".join(Outbox.body(fold).split())
    assert "Spam29 asks for 2 days more" in body and "Spam29 asks for 1 day" not in body
    assert '"[Deadline] ok Spam29"' in body
    assert body.count("asks for") == 30 - asked
    # The GM acts on one as the fold says: it is granted.
    before = referee.state("nomes")["turn"]["deadline"]
    smtp(mail(GM, G, "[Deadline] ok Spam29", in_reply_to=fold["Message-ID"]), GM)
    assert referee.state("nomes")["turn"]["deadline"] > before
    assert_replays(referee)


def test_a_flood_of_cfjs_reaches_the_judge_within_the_allowance(referee, smtp, outbox, clock):
    """Eight throwaway players open ten CfJs each; rule 17 names the same real judge for all.
    She gets at most the day's allowance, the last saying the rest wait, then one mail of the
    questions still waiting, each with the `[Ruling]` that answers it."""
    spam = [f"Spam{i}" for i in range(8)]
    _game(referee, ["Alice", "Bob", *spam])
    state = referee.state("nomes")
    mover = state["turn"]["player"]
    judge = state["order"][state["order"].index(mover) - 1]
    address = f"{judge.lower()}@x.example"
    askers = [n for n in spam if n != judge]
    outbox.new()
    for n in askers:
        a = f"{n.lower()}@x.example"
        for i in range(10):
            smtp(mail(a, G, f"[CfJ] Question {i} of {n}", "Is it so?"), a)
    js = [j for j in referee.state("nomes")["judgements"] if j["judge"] == judge]
    assert len(js) >= 60  # the flood did name her
    to_judge = outbox.to(address, outbox.new())
    assert len(to_judge) <= LIMIT, len(to_judge)
    judged = [m for m in to_judge if m["X-Mailref-Kind"] == "judge"]
    clock.now = TURN_OF_THE_DAY
    referee.tick()
    (fold,) = outbox.to(address, outbox.new(), kind="digest")
    waiting = len(js) - len(judged)
    assert f"{waiting} requests wait for you" in str(fold["Subject"])
    body = " ".join(Outbox.body(fold).split())
    last = js[-1]
    assert f'"[Ruling] {last["number"]}"' in body and last["question"] in body
    # She rules on one she heard of only in the fold.
    smtp(mail(address, G, f"[Ruling] {last['number']}", "TRUE"), address)
    last = next(j for j in referee.state("nomes")["judgements"] if j["number"] == last["number"])
    assert last["status"] != "open"
    assert_replays(referee)


def test_requests_waiting_come_with_the_gms_digest_when_it_comes_first(
    referee, smtp, outbox, clock
):
    """Flooded after midnight, the GM has the requests waiting with the morning's digest."""
    spam = [f"Spam{i}" for i in range(2 * LIMIT)]
    _game(referee, ["Alice", "Bob", *spam])
    clock.now = datetime(2026, 12, 2, 3, 0, tzinfo=UTC)
    referee.tick()
    outbox.new()
    for n in spam:
        smtp(mail(f"{n.lower()}@x.example", G, "[Deadline] +1d"), "forger@evil.example")
    assert len(outbox.to(GM, outbox.new())) <= LIMIT
    clock.now = datetime(2026, 12, 2, 8, 0, 1, tzinfo=UTC)  # digest_at, before the day turns
    referee.tick()
    subjects = [str(m["Subject"]) for m in outbox.to(GM, outbox.new(), kind="digest")]
    assert len(subjects) == 2, subjects  # the GM's digest and the requests beside it
    assert sum("requests wait for you" in s for s in subjects) == 1, subjects
    assert not referee.state("nomes").get("gm_waiting")
    assert_replays(referee)
