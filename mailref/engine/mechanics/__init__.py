"""The mechanics a Nomic is built from, each once: the proposal lifecycle (`proposals`) and
the voting policy that configures it (`voting`). A variant names the ones it plays and
declares their hooks (docs/architecture.md, "Mechanics")."""
