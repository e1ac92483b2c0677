"""Fuzzing mail reading: the corpus of every crash once found is replayed, and brief
coverage-guided (atheris, where it installs) and byte-level (hypothesis) runs mutate it.
Every run here has a fixed seed and a fixed number of inputs, so the suite gives the same
answer each time; `scripts/fuzz` searches open-ended and adds what it finds to the corpus."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.fuzz_read import read_everything
from support.paths import CORPUS as MAIL_CORPUS
from support.paths import FUZZ_READ, ROOT

pytestmark = pytest.mark.spec("2.4")

HERE = Path(__file__).parent
CORPUS = sorted((HERE / "fuzz_corpus").iterdir()) + sorted(MAIL_CORPUS.glob("*.eml"))
SEEDS = [p.read_bytes() for p in CORPUS]


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_case_is_read_without_error(path):
    read_everything(path.read_bytes())


# derandomize: the same examples on every run (a seed of the test's own); no example
# database, so an earlier run's failures do not change what this one tries.
FIXED = {"derandomize": True, "database": None, "deadline": None}


@settings(max_examples=150, suppress_health_check=list(HealthCheck), **FIXED)
@given(
    seed=st.sampled_from(SEEDS),
    cut=st.integers(0, 4000),
    junk=st.binary(max_size=300),
    at=st.integers(0, 4000),
)
def test_mutated_mail_bytes_are_read_without_error(seed, cut, junk, at):
    data = seed[:cut] + junk + seed[cut:] if at % 2 else seed[:at] + junk + seed[at + len(junk) :]
    read_everything(data)


@given(st.binary(max_size=3000))
@settings(max_examples=100, **FIXED)
def test_arbitrary_bytes_are_read_without_error(data):
    read_everything(data)


def test_a_brief_coverage_guided_run_finds_no_crash(tmp_path):
    pytest.importorskip("atheris")
    work = tmp_path / "corpus"
    work.mkdir()
    # A count of inputs and a seed, not a time: the same inputs on a busy machine as on an idle
    # one (PYTHONHASHSEED too: set order steers coverage, and so the mutations); the timeout
    # only catches a hang.
    out = subprocess.run(
        [
            sys.executable,
            str(FUZZ_READ),
            str(work),
            str(HERE / "fuzz_corpus"),
            "-seed=20261201",
            "-runs=1500",
            "-timeout=120",
            f"-artifact_prefix={tmp_path}/",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"},
    )
    crashes = [
        p.name for p in tmp_path.iterdir() if p.name.startswith(("crash-", "timeout-", "oom-"))
    ]
    assert out.returncode == 0 and not crashes, (crashes, out.stderr[-3000:])


# ---- the SMTP dialogue (tests/support/fuzz_smtp.py)
# ------------------------------------------------

SMTP_CORPUS = sorted((HERE / "fuzz_smtp_corpus").iterdir())


@pytest.mark.parametrize("path", SMTP_CORPUS, ids=lambda p: p.name)
def test_every_smtp_corpus_case_gets_well_formed_replies(path):
    from support.fuzz_smtp import dialogue

    dialogue(path.read_bytes())


@settings(max_examples=200, suppress_health_check=list(HealthCheck), **FIXED)
@given(
    seed=st.sampled_from([p.read_bytes() for p in SMTP_CORPUS]),
    at=st.integers(0, 200),
    junk=st.binary(max_size=60),
    cut=st.integers(0, 255),
)
def test_mutated_smtp_dialogues_get_well_formed_replies_and_hold_no_mail_data(seed, at, junk, cut):
    from support.fuzz_smtp import dialogue

    dialogue(bytes([cut]) + seed[1:at] + junk + seed[at:])
