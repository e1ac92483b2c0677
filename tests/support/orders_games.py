"""Games of each variant the tests create."""

from __future__ import annotations

EIRE, ORDERS = "eire@ref.example", "diplo@ref.example"
