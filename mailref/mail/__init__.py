"""Transport only: SMTP listener, IMAP poller, outbox delivery, Maildir."""
