"""The folders of `[imap]` by the names a server knows them under.

The config writes a folder hierarchy with "/" (`mailref/processed`, the default). Many hosts
(Courier, cPanel, older Cyrus) keep every folder under a personal namespace "INBOX." with "."
between levels: there `mailref/processed` cannot be created ("Client tried to access
nonexistent namespace"), and the poller answered every mail, failed to file it, and read the
whole folder again each second, with a line blaming `[imap] folder`. A name the server does
not have is tried as the server would write it (NAMESPACE, RFC 2342): its separator between
the levels and its personal prefix before them."""

from __future__ import annotations

import logging

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

log = logging.getLogger("mailref.imap")


class FolderTrouble(Exception):
    """A folder mailref files into could not be created or used: which key names it."""

    def __init__(self, key: str, name: str, said: BaseException):
        super().__init__(f"{key} {name!r}: {said}")
        self.key, self.name, self.said = key, name, said


def written_for(c: IMAPClient, name: str) -> str:
    """NAME as this server writes it: "/" between levels as its separator, under its personal
    prefix. INBOX, and a name already under the prefix, stay as they are."""
    if name.upper() == "INBOX":
        return name
    prefix, sep = "", "/"
    if c.has_capability("NAMESPACE"):
        personal = c.namespace().personal or ()
        if personal:
            prefix, sep = personal[0][0] or "", personal[0][1] or "/"
    written = sep.join(name.split("/"))
    if (
        prefix
        and not written.upper().startswith(prefix.upper())
        and written.upper() != prefix.rstrip(sep).upper()
    ):
        written = prefix + written
    return written


def on_server(c: IMAPClient, name: str) -> str:
    """The name the folder NAME has on this server: NAME when it exists, else as the server
    writes it when that exists, else NAME (the server's error will say it is missing)."""
    if c.folder_exists(name):
        return name
    written = written_for(c, name)
    return written if written != name and c.folder_exists(written) else name


def ensure(c: IMAPClient, name: str, key: str) -> str:
    """The server's name of the folder [imap] KEY names, created when missing (said once)."""
    if c.folder_exists(name):
        return name
    written = written_for(c, name)
    if written != name and c.folder_exists(written):
        return written
    try:
        c.create_folder(written)
    except IMAPClientError as e:
        if not c.folder_exists(written):  # else: another daemon created it meanwhile
            raise FolderTrouble(key, written, e) from e
    else:
        # Subscribed, or the GM's client (Thunderbird, Apple Mail, phones: subscribed folders
        # only, by default) never shows where the answered mail went.
        try:
            c.subscribe_folder(written)
        except IMAPClientError:
            pass
        log.info(
            "created the folder %r on the server for [imap] %s%s",
            written,
            key,
            f" (written {name!r} in the config)" if written != name else "",
        )
    return written
