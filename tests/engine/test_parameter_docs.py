"""The parameter tables of docs/games/*.md are the variants' tables (engine/variants/
rule_tables.py): each parameter, its default, the rule that states it and what the referee does
by it, row for row. A failure prints the table the doc should hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mailref.engine.ruleparams import Param, Table
from mailref.engine.variants import rule_tables as t

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
RULES_HEADER = (
    "| Parameter | Default | Rule | Where the value stands | What the referee does by it |"
)
SETTINGS_HEADER = "| Parameter | Default | What the referee does by it |"


def _default(p: Param) -> str:
    return "(none)" if p.default is None else p.kind.shown(p.default)


def _says(p: Param) -> str:
    return p.says.replace("{v:+d}", "N").replace("{v}", "N").replace("|", "\\|")


def rule_rows(table: Table) -> list[str]:
    """The table of the parameters a rule states, as the doc writes it."""
    rows = [
        f"| `{p.name}` | {_default(p)} | {p.rule} | {p.where} | {_says(p)} |"
        for p in table
        if p.rule is not None
    ]
    return [RULES_HEADER, "|---|---|---|---|---|", *rows]


def setting_rows(table: Table, beside: Table | None) -> list[str]:
    """The table of the settings no rule states, those of BESIDE (the shared ones) left out."""
    rows = [
        f"| `{p.name}` | {_default(p)} | {_says(p)} |"
        for p in table
        if p.rule is None and (beside is None or beside.params.get(p.name) is not p)
    ]
    return [SETTINGS_HEADER, "|---|---|---|", *rows]


def table_in(doc: str, header: str) -> list[str]:
    """The markdown table of DOC that begins with HEADER, line by line."""
    lines = (DOCS / doc).read_text().splitlines()
    assert header in lines, f"docs/games/{doc} has no table headed {header}"
    at = lines.index(header)
    end = next((i for i in range(at, len(lines)) if not lines[i].startswith("|")), len(lines))
    return lines[at:end]


EXPECTED = [
    ("sidekick.md", RULES_HEADER, rule_rows(t.SIDEKICK)),
    ("sidekick.md", SETTINGS_HEADER, setting_rows(t.SIDEKICK, t.SHARED)),
    ("blognomic.md", RULES_HEADER, rule_rows(t.BLOGNOMIC)),
    ("blognomic.md", SETTINGS_HEADER, setting_rows(t.BLOGNOMIC, t.SHARED)),
    ("imperial.md", RULES_HEADER, rule_rows(t.IMPERIAL)),
    ("imperial.md", SETTINGS_HEADER, setting_rows(t.IMPERIAL, t.SHARED)),
    ("eire.md", SETTINGS_HEADER, setting_rows(t.EIRE, t.SHARED)),
    ("orders.md", SETTINGS_HEADER, setting_rows(t.ORDERS, t.SHARED)),
    ("README.md", SETTINGS_HEADER, setting_rows(t.SHARED, None)),
]


@pytest.mark.parametrize(("doc", "header", "rows"), EXPECTED, ids=lambda x: str(x)[:24])
def test_the_docs_parameter_table_is_the_variants_table(doc, header, rows):
    assert table_in(doc, header) == rows, f"docs/games/{doc} should hold:\n" + "\n".join(rows)


def test_eires_house_rules_name_each_parameter_with_its_default():
    """The house-rule table says "`walk_in` (on)": each such default is the table's."""
    text = (DOCS / "eire.md").read_text()
    named = re.findall(r"`(\w+)` \(([^)]*)\)", text)
    assert named
    for name, default in named:
        if name in t.EIRE.params:
            assert default == _default(t.EIRE[name]), (name, default)
