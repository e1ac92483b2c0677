"""A site folder that cannot be written is one line at start, and the pages catch up."""

from __future__ import annotations

import pytest

from support.helpers import wait_for
from support.joining import confirm_on_site
from support.operator_host import send
from support.ops import Site

pytestmark = pytest.mark.spec("4.5")


def test_a_site_folder_that_cannot_be_written_is_one_line_at_start_and_the_pages_catch_up(tmp_path):
    """`[site] dir` under a path mailref cannot write (here a file where a folder should be,
    as a typo or another user's folder would): the daemon started silently, then logged a
    traceback for every mail ("site: rebuilding the pages of nomes failed ... PermissionError"),
    and `game create`/`site build` printed tracebacks. Now: one line at start naming the key,
    none per mail, one when it works again, and every game's pages written then."""
    (tmp_path / "var").mkdir()
    blocker = tmp_path / "var" / "www"
    blocker.write_text("not a folder")
    site = Site(tmp_path, extra='[site]\ndir = "var/www/site"\n')
    r = site.cli("check")
    assert r.returncode == 1, r.stdout
    line = [x for x in r.stdout.splitlines() if x.split()[1] == "site"]
    assert len(line) == 1 and line[0].startswith("FAIL") and "not a directory" in line[0], r.stdout

    r = site.cli(
        "game", "create", "nomes", "--variant", "sidekick", "--address", "nomes@ref.example"
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "cannot write the pages in" in r.stderr and "[site] dir" in r.stderr, r.stderr
    r = site.cli("game", "create", "eire", "--variant", "eire", "--address", "eire@ref.example")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    r = site.cli("site", "build")
    assert (
        r.returncode == 1 and len(r.stderr.splitlines()) == 1 and "[site] dir" in r.stderr
    ), r.stderr

    with site.serve() as daemon:
        said = daemon.stderr()
        assert said.count("cannot write the pages in") == 1 and "[site] dir" in said, said
        for i, name in enumerate(["Alice", "Bob", "Carol"]):
            send(
                site,
                f"{name.lower()}@example.org",
                "nomes@ref.example",
                "[Join]",
                f"Name: {name}",
                f"j{i}@x",
            )
            confirm_on_site(site, f"{name.lower()}@example.org")
        assert wait_for(lambda: daemon.stderr().count("joined") == 3, 30), daemon.stderr()
        blocker.unlink()  # the operator fixes it
        send(site, "dave@example.org", "nomes@ref.example", "[Join]", "Name: Dave", "j4@x")
        confirm_on_site(site, "dave@example.org")
        assert wait_for(lambda: "writing the pages in" in daemon.stderr(), 30), daemon.stderr()
        root = tmp_path / "var" / "www" / "site"
        assert wait_for(lambda: (root / "eire" / "index.html").exists(), 30), daemon.stderr()
    log = daemon.stderr()
    assert "Traceback" not in log and log.count("cannot write the pages in") == 1, log
    assert "Dave" in (root / "nomes" / "index.html").read_text()
    assert (
        "nomes" in (root / "index.html").read_text() and "eire" in (root / "index.html").read_text()
    )
