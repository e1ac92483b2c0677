"""One refusal's words: Jinja2 templates over its parameters, the player's mail's and, where
the operator acts otherwise, the CLI's."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Wording:
    reason: str
    hint: str = ""
    # The operator acts with commands, not mail: the same refusal in those terms, where a
    # mail's words would mislead ("send [Status]" is `mailref game show SLUG` there).
    cli_reason: str | None = None
    cli_hint: str | None = None
