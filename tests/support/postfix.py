"""A private Postfix on loopback for the tests (facts in shared/notes): its own
config_directory, queue and data directories in a temporary folder, smtpd on a free port,
no chroot, and a texthash transport map saying where each domain's mail goes (mailref over
`lmtp:` or `smtp:`). Mail for MAILDIR_DOMAIN is delivered by Postfix's virtual agent into
a Maildir. Started and stopped by the tests alone; the host's Postfix is never touched."""

from __future__ import annotations

import mailbox
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from support.dovecot import _mail_user, free_port

MAILDIR_DOMAIN = "players.example"


def postfix_binary() -> str | None:
    return shutil.which("postfix") or (
        "/usr/sbin/postfix" if os.path.exists("/usr/sbin/postfix") else None
    )


def _master_cf(port: int) -> str:
    """Debian's master.cf with every chroot column `n` and smtpd on 127.0.0.1:PORT alone."""
    out = []
    for line in Path("/etc/postfix/master.cf").read_text().splitlines():
        fields = line.split()
        if line[:1] in ("", "#", " ", "\t") or len(fields) < 8:
            out.append(line)
            continue
        if fields[0] in ("smtp", "submission", "smtps") and fields[1] == "inet":
            fields[0] = f"127.0.0.1:{port}" if fields[0] == "smtp" else "#" + fields[0]
        fields[4] = "n"
        out.append("  ".join(fields))
    return "\n".join(out) + "\n"


class Postfix:
    def __init__(self, transport: dict[str, str], relay_domains: list[str]):
        """TRANSPORT: domain -> nexthop (e.g. "lmtp:inet:[127.0.0.1]:2424"), for RELAY_DOMAINS.
        Its folder is a new one under /tmp (pytest's tmp_path is closed to the postfix user),
        removed when it stops."""
        self.root = Path(tempfile.mkdtemp(prefix="mailref-postfix-"))
        self.transport, self.relay_domains = transport, relay_domains
        self.conf, self.queue, self.data = (
            self.root / "etc",
            self.root / "queue",
            self.root / "data",
        )
        self.maildir = self.root / "maildir"
        self.port = free_port()

    def start(self) -> Postfix:
        user = _mail_user()
        postfix = pwd.getpwnam("postfix")
        for d in (self.conf, self.queue, self.data, self.maildir):
            d.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o755)
        shutil.chown(self.data, postfix.pw_uid, postfix.pw_gid)
        shutil.chown(self.maildir, user.pw_uid, user.pw_gid)
        (self.conf / "transport").write_text(
            "".join(f"{d} {t}\n" for d, t in self.transport.items())
        )
        (self.conf / "vmailbox").write_text(
            f"@{MAILDIR_DOMAIN} all/\n"
        )  # one Maildir for every player
        (self.conf / "main.cf").write_text(f"""\
compatibility_level = 3.6
queue_directory = {self.queue}
data_directory = {self.data}
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.test
mydomain = test
myorigin = $myhostname
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
local_transport = error:no local delivery here
relay_domains = {' '.join(self.relay_domains)}
transport_maps = texthash:{self.conf}/transport
virtual_mailbox_domains = {MAILDIR_DOMAIN}
virtual_mailbox_base = {self.maildir}
virtual_mailbox_maps = texthash:{self.conf}/vmailbox
virtual_uid_maps = static:{user.pw_uid}
virtual_gid_maps = static:{user.pw_gid}
virtual_minimum_uid = 1
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtp_dns_support_level = disabled
lmtp_dns_support_level = disabled
maillog_file = {self.root}/postfix.log
maillog_file_prefixes = {self.root}
queue_run_delay = 2s
minimal_backoff_time = 2s
maximal_backoff_time = 4s
""")
        (self.conf / "master.cf").write_text(_master_cf(self.port))
        self._postfix("start")
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if (self.queue / "pid" / "master.pid").exists() and self._answers():
                return self
            time.sleep(0.1)
        raise RuntimeError(f"postfix did not start: {self.log()}")

    def _answers(self) -> bool:
        import socket

        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                return s.recv(4).startswith(b"220")
        except OSError:
            return False

    def _postfix(self, *args: str) -> None:
        out = subprocess.run(
            [postfix_binary(), "-c", str(self.conf), *args], capture_output=True, text=True
        )
        if out.returncode != 0:
            raise RuntimeError(f"postfix {' '.join(args)}: {out.stdout}{out.stderr}{self.log()}")

    def stop(self) -> None:
        subprocess.run([postfix_binary(), "-c", str(self.conf), "stop"], capture_output=True)
        pid = self.queue / "pid" / "master.pid"
        end = time.monotonic() + 15
        while pid.exists() and time.monotonic() < end:
            try:
                os.kill(int(pid.read_text().split()[0]), 0)
            except (OSError, ValueError):
                break
            time.sleep(0.1)
        shutil.rmtree(self.root, ignore_errors=True)

    def flush(self) -> None:
        """Try the deferred mail now (`postqueue -f`), as an operator would."""
        subprocess.run(["postqueue", "-c", str(self.conf), "-f"], capture_output=True)

    def queued(self) -> int:
        """Messages waiting in the queue."""
        out = subprocess.run(
            ["postqueue", "-c", str(self.conf), "-j"], capture_output=True, text=True
        )
        return len([line for line in out.stdout.splitlines() if line.strip()])

    def delivered(self) -> list:
        """The mail Postfix put into the players' Maildir."""
        box = self.maildir / "all"
        return list(mailbox.Maildir(str(box))) if (box / "cur").exists() else []

    def log(self) -> str:
        p = self.root / "postfix.log"
        return p.read_text(errors="replace") if p.exists() else ""

    def __enter__(self) -> Postfix:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
