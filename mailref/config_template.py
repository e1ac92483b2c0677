"""The commented TOML file `mailref init` writes: every key with its default value."""

DEFAULT_TOML = """\
# mailref configuration. Every key shown has its default value.
# Durations are written 2s, 30m, 12h, 5d, 1d12h.

[daemon]
database = "sqlite:///var/mailref.sqlite3"  # any SQLAlchemy URL; relative paths are relative to \
this file
from_address = "referee@localhost"          # envelope sender of everything; From of mail that \
belongs to no game
admin_address = "gm@localhost"              # alerts (and digests of games without a GM address)
timezone = "UTC"                            # default display zone for new games
replies_per_sender_per_day = 20             # then one notice, then silence until tomorrow
replies_per_stranger_per_day = 5           # the same for mail from an address that is no player's
# Per game (`mailref game set SLUG KEY=VALUE`, or `--set` at `game create`), not here:
# mails_per_player_day = 60 (mail to one address a day, the GM too; the rest wait),
# joins_per_day = 10 (newcomers a day), join_approval = "auto" ("gm": [Approve] NAME).

[smtp_in]          # built-in listener (omit the table to disable)
host = "127.0.0.1"
port = 2525
max_message_size = "10MB"

# [lmtp_in]        # LMTP listener (RFC 2033): how a front MTA hands mail over, one reply per
#                  # recipient (Postfix: `lmtp:inet:[127.0.0.1]:2424`); uncomment to enable
# host = "127.0.0.1"
# port = 2424
# max_message_size = "10MB"

# [imap]           # mailbox poller (uncomment to enable)
# host = "127.0.0.1"
# port = 993
# ssl = true                    # TLS from the first byte (port 993)
# starttls = false              # or: ssl = false, starttls = true on port 143 (TLS before LOGIN)
# username = "referee"
# password_file = "imap.pass"   # or password = "..." ; never logged
# folder = "INBOX"
# processed_folder = "mailref/processed"
# rejected_folder = "mailref/rejected"
# idle = true                   # IMAP IDLE when the server offers it, else polling
# poll_interval = "60s"         # also how often IDLE is renewed (a lost connection is found)

# [smtp_out]       # relay for outgoing mail (omit: write to [outbox] maildir)
# host = "127.0.0.1"
# port = 25
# tls = "none"     # none | starttls (ports 587, 25) | implicit (TLS from the first byte, port 465)
# ehlo_name = ""   # the name said in EHLO; default the host's FQDN
# username = ""
# password_file = ""

[outbox]
maildir = "var/outbox"

# [site]           # the published pages of every game (uncomment to enable)
# dir = "var/site"
# base_url = ""    # e.g. "https://games.example.org/"; when set, mail footers link to the game's \
pages

# [web]            # the one-click unsubscribe (RFC 8058) behind the site's web server, which
#                  # passes /unsubscribe/ here; needs an https [site] base_url (uncomment to enable)
# listen = "127.0.0.1:8087"

[auth]             # sender authentication (SPEC §2.7; see docs/authentication.md)
trusted_authserv_ids = []   # e.g. ["mx.example.org"]: the receiving MTA whose \
Authentication-Results count;
                            # a game set require_auth=on then acts only on mail that server verified
"""
