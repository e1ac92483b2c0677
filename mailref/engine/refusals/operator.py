"""What the operator's commands refuse: the database, backups, the queues, the games."""

from mailref.engine.refusals.wording import Wording as W

WORDS = {
    "no_game": W("there is no game {{ slug|repr }}"),
    "game_exists": W("a game {{ slug|repr }} exists already"),
    "address_taken": W("the address {{ address }} belongs to another game"),
    "address_is_referees": W(
        "the address {{ address }} is the referee's own (from_address)",
        "give the game an address of its own, e.g. nomes@games.example.org",
    ),
    "unknown_variant": W("unknown variant {{ variant|repr }} (known: {{ known|join(', ') }})"),
    "bad_slug": W("{{ slug|repr }} is not a slug (lower-case letters, digits, - and _)"),
    "bad_timezone_option": W(
        "--timezone {{ zone|repr }} is not a time zone (write e.g. Europe/Paris or UTC)"
    ),
    # WHY: the address checker's own sentence (write/address.py), about the option it names.
    "bad_address": W("{{ why }}"),
    "no_database": W("there is no database at {{ path }}{{ where }}"),
    "no_database_yet": W(
        "there is no database at {{ path }}{{ where }}",
        "`mailref game create` or `mailref serve` creates it",
    ),
    "backup_not_sqlite": W(
        "the database is not SQLite: back it up with its own tools (PostgreSQL: pg_dump -Fc)",
        'docs/operating.md, "Backup and restore"',
    ),
    "backup_target_exists": W("{{ target }} exists; name a new file"),
    "backup_target_is_database": W("{{ target }} is the database itself"),
    "no_folder": W("there is no folder {{ folder }}"),
    "backup_failed": W("cannot back up {{ source }}: {{ why }}"),
    "no_message": W("there is no message #{{ id }}"),
    "message_not_failed": W(
        "message #{{ id }} is {{ status }}; only failed messages are reprocessed (no effect twice)"
    ),
    "no_outgoing": W("there is no outgoing message #{{ id }}"),
    "outgoing_not_resent": W("outgoing message #{{ id }} is {{ status }}; it is not sent again"),
    "outgoing_done_already": W("outgoing message #{{ id }} is {{ status }} already"),
    "outgoing_being_sent": W("outgoing message #{{ id }} is being sent by {{ by }} right now"),
    "outgoing_being_sent_try_later": W(
        "outgoing message #{{ id }} is being sent by {{ by }} right now; try again in a minute"
    ),
    "no_site_table": W(
        "{{ config or 'the configuration' }} has no [site] table; add one with dir = \"var/site\""
    ),
    "site_unwritable": W("cannot write the pages in {{ dir }} ([site] dir): {{ why }}"),
    "journal_does_not_replay": W(
        "this game's journal does not replay ({{ why }}), so nothing in it can be undone",
        "`mailref replay SLUG` shows where it differs; correct the game by hand",
    ),
}
