"""Where the suite's data lives in the checkout."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
CORPUS = TESTS / "reading" / "corpus"  # mail from each client style, with its expected envelope
FUZZ_CORPUS = TESTS / "abuse" / "fuzz_corpus"  # every mail that once crashed the reading
FUZZ_SMTP_CORPUS = TESTS / "abuse" / "fuzz_smtp_corpus"  # SMTP dialogues that once went wrong
BOUNCES = TESTS / "intake" / "bounces"  # flufl.bounce's sample bounces
UPGRADE = TESTS / "operating" / "upgrade"  # databases older versions left behind
SEEDS = TESTS / "games" / "seeds"  # the seed texts of the variants' rules
FUZZ_READ = TESTS / "support" / "fuzz_read.py"
