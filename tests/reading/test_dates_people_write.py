"""SPEC §2.5: the dates and times players write after `[Away]` and `[Deadline]`, read in a
zone against the time of the mail (docs/decisions/time.md)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from mailref.engine.dates import read_moment, read_span

pytestmark = pytest.mark.spec("2.5")

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)  # a Tuesday


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("written", "zone", "meant"),
    [
        ("6 Jan", "UTC", utc(2027, 1, 6)),
        ("6th January", "UTC", utc(2027, 1, 6)),
        ("Jan 6 2027", "UTC", utc(2027, 1, 6)),
        ("24 DEC", "UTC", utc(2026, 12, 24)),
        ("2026-12-05 18:30", "UTC", utc(2026, 12, 5, 18, 30)),
        ("Fri 18:00", "UTC", utc(2026, 12, 4, 18)),
        ("Fri 18:00", "Europe/Berlin", utc(2026, 12, 4, 17)),
        ("Tue 9am", "UTC", utc(2026, 12, 8, 9)),  # today's 9:00 has passed: next Tuesday
        ("Tue 6pm", "UTC", utc(2026, 12, 1, 18)),  # today's is still ahead
        ("tomorrow noon", "UTC", utc(2026, 12, 2, 12)),
        ("18:00", "UTC", utc(2026, 12, 1, 18)),
        # as the game writes a time, so that a Reply quoting it reads the same moment
        ("Fri 4 Dec 2026 11:00 CET (10:00 UTC), in 3 days", "Europe/Berlin", utc(2026, 12, 4, 10)),
        ("Fri 4 Dec 2026 00:00 UTC.", "Europe/Berlin", utc(2026, 12, 4)),
    ],
)
def test_a_moment_as_people_write_it(written, zone, meant):
    assert read_moment(written, zone, NOW) == meant


@pytest.mark.parametrize(
    ("written", "start", "end"),
    [
        ("until 4 Dec", None, utc(2026, 12, 4)),  # back on 4 Dec
        ("through 4 Dec", None, utc(2026, 12, 5)),  # 4 Dec included
        ("24 Dec to 6 Jan", utc(2026, 12, 24), utc(2027, 1, 7)),
        ("from 24 Dec until 6 Jan", utc(2026, 12, 24), utc(2027, 1, 6)),
        ("1 Dec to 6 Dec", None, utc(2026, 12, 7)),  # begun already: away from now
        ("I'm away until Friday.", None, utc(2026, 12, 4)),
        ("for 3 days", None, utc(2026, 12, 4, 10)),
        ("until 6 Jan 18:00", None, utc(2027, 1, 6, 18)),
    ],
)
def test_the_span_of_an_absence(written, start, end):
    span = read_span(written, "UTC", NOW)
    assert span is not None and (span.start, span.end) == (start, end)


@pytest.mark.parametrize("prose", ["Going to Spain", "on holiday", "Back next week.", "to be sure"])
def test_prose_names_no_absence(prose):
    assert read_span(prose, "UTC", NOW) is None


@pytest.mark.parametrize(
    ("written", "why"),
    [
        ("until 6 Jna", "I could not read '6 Jna' as a date"),
        ("until Fri 5 Dec", "5 Dec 2026 is a Saturday, not a Friday"),
        ("until 31 Feb", "no date of the calendar"),
        ("until 25:00", "is not a time of day"),
    ],
)
def test_an_unreadable_date_says_why(written, why):
    with pytest.raises(ValueError, match=why):
        read_span(written, "UTC", NOW)
