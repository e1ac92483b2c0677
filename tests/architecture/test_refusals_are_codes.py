"""A refusal is a code of the catalogue (mailref/engine/refusals/), never prose: every
`Refused(...)` (and NoBallot) call in mailref/ and handlers/ names a known code first, with its
words' parameters by keyword, read from the source with `ast`."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from mailref.engine.refusals import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
REFUSALS = {"Refused", "NoBallot"}

# Sites whose code comes from a table, each table checked below: a variant's `instead`.
FROM_A_TABLE = {"mailref/engine/variants/base.py": 1}


def _called(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _is_code(node: ast.Call) -> bool:
    first = node.args[0] if node.args else None
    return (
        len(node.args) == 1
        and isinstance(first, ast.Constant)
        and isinstance(first.value, str)
        and first.value in CATALOGUE
    )


def prose_sites() -> Counter[str]:
    found: Counter[str] = Counter()
    for path in [*(ROOT / "mailref").rglob("*.py"), *(ROOT / "handlers").rglob("*.py")]:
        if "refusals" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and _called(node) in REFUSALS and not _is_code(node):
                found[str(path.relative_to(ROOT))] += 1
    return found


def test_every_refusal_names_a_code_of_the_catalogue():
    assert dict(prose_sites()) == FROM_A_TABLE


def test_what_a_variant_says_instead_is_a_code_of_the_catalogue():
    from mailref.engine import VARIANTS, get_variant

    said = {code for name in VARIANTS for code in get_variant(name).instead.values()}
    assert said and said <= set(CATALOGUE)


def test_a_code_is_a_snake_case_name():
    assert all(c.replace("_", "").isalpha() and c.islower() for c in CATALOGUE)
