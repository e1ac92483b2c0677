"""Outgoing mail conforms (SPEC §4.3): what compose writes passes a standard relay, and the
suite-wide relay check (tests/support/relay.py) catches what would not."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime

import pytest

from mailref.write.compose import compose, wire
from support.joining import confirm_waiting
from support.relay import conformance

pytestmark = pytest.mark.spec("4.3")

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def _mail(**kw) -> bytes:
    args = {
        "sender": "Nomes <nomes@ref.example>",
        "to": "alice@x.org",
        "subject": "[Nomes] Turn order",
        "body": "Ünïcode — and a line " + "x" * 3000 + "\n",
        "kind": "announcement",
        "game": "nomes",
        "now": NOW,
    }
    return wire(compose(**{**args, **kw}))


def test_long_unicode_lines_are_quoted_printable_and_short():
    raw = _mail()
    assert conformance(raw) == []
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg["Content-Transfer-Encoding"] == "quoted-printable"
    assert msg["MIME-Version"] == "1.0" and msg["Date"] and msg["Message-ID"]
    assert "x" * 3000 in msg.get_content() and "Ünïcode" in msg.get_content()


def test_an_inline_svg_in_html_and_attachments_conform():
    svg = '<svg xmlns="http://www.w3.org/2000/svg">' + "<text>Donal</text>" * 500 + "</svg>"
    raw = _mail(
        html="<html><body>" + svg + "</body></html>",
        attachments=[
            ("map.svg", "image/svg+xml", svg.encode()),
            ("map.png", "image/png", bytes(range(256)) * 20),
        ],
    )
    assert conformance(raw) == []
    assert raw.count(b"MIME-Version") == 1


def test_the_relay_check_refuses_what_a_relay_refuses(relay):
    bad = (
        b"From: a@x.org\r\nTo: b@x.org\r\nSubject: x\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\n"
        b"Message-ID: <1@x.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/html\r\n\r\n"
        + b"<p>" * 700
        + b"\r\n"
    )
    problems = relay.check([("bad", bad)])
    assert any("line 9 is 2100 octets" in p for p in problems)
    assert any("500" in p and "Line too long" in p for p in problems)
    assert relay.check([("good", _mail())]) == []


def test_the_relay_check_refuses_8bit_without_encoding_and_missing_headers():
    raw = "From: a@x.org\r\nTo: b@x.org\r\nSubject: x\r\n\r\nGrüße\r\n".encode()
    problems = conformance(raw)
    assert any("no Date" in p for p in problems) and any("no Message-ID" in p for p in problems)
    assert any("8-bit text" in p for p in problems)
    assert any("bare LF" in p for p in conformance(raw.replace(b"\r\n", b"\n")))


def test_eire_results_carry_an_inline_png_map_the_svg_and_the_lands_in_words(referee, outbox):
    """SPEC §4.3: the picture as PNG (what clients show), the SVG attached, the text in words."""
    import io

    from PIL import Image

    from support.helpers import mail

    g = "eire@ref.example"
    referee.create_game("eire", "eire", g, gm="gm@ref.example")
    for name, color, tribe, origin in (
        ("Finn", "Green", "Plainsmen", "Llanc"),
        ("Maeve", "Red", "Plainsmen", "Donal"),
        ("Gráinne", "Lavender", "Plainsmen", "Gleann Dá Loch"),
    ):
        referee.accept(
            mail(
                f"{name[:2].lower()}@x.org",
                g,
                "[Join]",
                f"Name: {name}\nColor: {color}\nTribe: {tribe}\nOrigin: {origin}",
            ),
            "smtp",
            f"{name[:2].lower()}@x.org",
            [g],
        )
        confirm_waiting(referee)
    assert referee.admin("eire", {"type": "start"}, "gm").ok
    for who in ("fi", "ma", "gr"):  # nobody can be High King yet: a quiet turn
        referee.accept(
            mail(f"{who}@x.org", g, "[Orders]", "**Declare High King**"),
            "smtp",
            f"{who}@x.org",
            [g],
        )
    referee.clock.advance(days=8)
    referee.tick()
    results = [m for m in outbox.all() if m["X-Mailref-Kind"] == "results"]
    assert results, [(m["X-Mailref-Kind"], m["Subject"]) for m in outbox.all()]
    msg = results[0]
    assert msg["Subject"].startswith("[Eire] [Results] Turn 1")
    text = outbox.body(msg)
    assert "Finn (Green): 1 land: Llanc" in text and "Maeve (Red): 1 land: Donal" in text
    assert "independent: 39 lands: Reudh, Bain," in " ".join(text.split())
    html = msg.get_body(("html",)).get_content()
    png = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    svg = [p for p in msg.walk() if p.get_content_type() == "image/svg+xml"]
    assert len(png) == 1 and len(svg) == 1
    assert (
        png[0]["Content-Disposition"].startswith("inline")
        and svg[0].get_filename() == "eire-turn-1.svg"
    )
    assert f'cid:{png[0]["Content-ID"].strip("<>")}' in html and "<svg" not in html
    picture = Image.open(io.BytesIO(png[0].get_content()))
    assert picture.format == "PNG" and picture.size[0] >= 800
    drawing = (
        svg[0].get_content().decode()
        if isinstance(svg[0].get_content(), bytes)
        else svg[0].get_content()
    )
    assert (
        "Legend" in drawing
        and "Gráinne (Lavender): 1 land" in drawing
        and "independent: 39 lands" in drawing
    )


def test_long_land_names_fit_their_hexagon():
    from mailref.engine.variants.eire_svg import HEX_WIDTH, fitted_name

    for name in ("Donal", "Ráth Cruachan", "Gleann Dá Loch", "A Very Long Imaginary Land Name"):
        label, size = fitted_name(name)
        assert len(label) * 0.56 * size <= HEX_WIDTH + 0.5 and size >= 6
    assert fitted_name("Donal") == ("Donal", 9.0)
