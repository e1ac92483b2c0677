"""A private Dovecot on loopback for the tests (facts in shared/notes): its own base_dir,
an unprivileged mail user, no chroot, plaintext auth, a free port."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

from support.ports import free_port as free_port  # where the tests import it from

USER = "mailreftest"
PASSWORD = "secret"


def dovecot_binary() -> str | None:
    return shutil.which("dovecot") or (
        "/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None
    )


def _mail_user() -> pwd.struct_passwd:
    # Another test process (a pytest-xdist worker) may be adding the user at the same moment:
    # useradd then fails ("already exists", or /etc/passwd locked), and a later look finds it.
    for _ in range(50):
        try:
            return pwd.getpwnam(USER)
        except KeyError:
            subprocess.run(
                ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
                capture_output=True,
            )
            time.sleep(0.1)
    return pwd.getpwnam(USER)


def self_signed(cert: Path, key: Path) -> None:
    """A self-signed certificate for 127.0.0.1 (a client trusts it through SSL_CERT_FILE)."""
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )


class Dovecot:
    def __init__(
        self,
        root: Path,
        tls: bool = False,
        separator: str = "/",
        prefix: str = "",
        capabilities: str | None = None,
        conf: str = "",
    ):
        """TLS: offer STARTTLS on the IMAP port (as most hosts do on 143) with a self-signed
        certificate for 127.0.0.1, `self.cert` (a client trusts it through SSL_CERT_FILE).
        To look like other hosts: SEPARATOR and PREFIX of the personal namespace (Courier and
        cPanel hosts: "." and "INBOX."), CAPABILITIES offered after login instead of Dovecot's
        own (a server without MOVE, UIDPLUS or IDLE), and CONF: more settings."""
        self.root = root
        self.separator, self.prefix, self.capabilities, self.conf = (
            separator,
            prefix,
            capabilities,
            conf,
        )
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.tls = tls
        self.cert = root / "cert.pem"

    def start(self) -> Dovecot:
        user = _mail_user()
        for d in ("run", "state", "mail"):
            (self.root / d).mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o755)
        shutil.chown(self.root / "mail", user.pw_uid, user.pw_gid)
        (self.root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}::::::\n")
        if self.tls:
            self_signed(self.cert, self.root / "key.pem")
            tls = (
                f"ssl = yes\nssl_cert = <{self.cert}\nssl_key = <{self.root / 'key.pem'}\n"
                "disable_plaintext_auth = no\n"
            )
        else:
            tls = "ssl = no\ndisable_plaintext_auth = no\n"
        conf = self.root / "dovecot.conf"
        conf.write_text(f"""
base_dir = {self.root}/run
state_dir = {self.root}/state
log_path = {self.root}/dovecot.log
protocols = imap
listen = 127.0.0.1
{tls}auth_mechanisms = plain login
mail_location = maildir:{self.root}/mail/%u
mail_uid = {user.pw_uid}
mail_gid = {user.pw_gid}
first_valid_uid = {user.pw_uid}
last_valid_uid = 0
first_valid_gid = 0
default_login_user = {user.pw_name}
default_internal_user = {user.pw_name}
passdb {{
  driver = passwd-file
  args = {self.root}/passwd
}}
userdb {{
  driver = static
  args = uid={user.pw_uid} gid={user.pw_gid} home={self.root}/mail/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service pop3-login {{
  chroot =
}}
namespace inbox {{
  inbox = yes
  separator = {self.separator}
  prefix = {self.prefix}
}}
{f"imap_capability = {self.capabilities}" if self.capabilities is not None else ""}
{self.conf}
""")
        self.proc = subprocess.Popen(
            [dovecot_binary(), "-F", "-c", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    if s.recv(100).startswith(b"* OK"):
                        return self
            except OSError:
                time.sleep(0.1)
            if self.proc.poll() is not None:
                break
        log = (
            (self.root / "dovecot.log").read_text() if (self.root / "dovecot.log").exists() else ""
        )
        err = self.proc.stderr.read().decode() if self.proc.poll() is not None else ""
        self.stop()
        raise RuntimeError(f"dovecot did not start: {err}\n{log[-2000:]}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def imap_toml(
        self, folder: str | None = None, poll_interval: str = "1h", password: str = PASSWORD
    ) -> str:
        """The `[imap]` block of a mailref.toml that logs in here; with FOLDER, the daemon reads
        it (IDLE, else every POLL_INTERVAL) and files into FOLDER-done and FOLDER-rejected."""
        block = (
            f'[imap]\nhost = "127.0.0.1"\nport = {self.port}\nssl = false\n'
            f'username = "{USER}"\npassword = "{password}"\n'
        )
        if folder:
            block += (
                f'folder = "{folder}"\nprocessed_folder = "{folder}-done"\n'
                f'rejected_folder = "{folder}-rejected"\nidle = true\npoll_interval = '
                f'"{poll_interval}"\n'
            )
        return block

    def client(self):
        from imapclient import IMAPClient

        c = IMAPClient("127.0.0.1", port=self.port, ssl=False, timeout=30)
        c.login(USER, PASSWORD)
        return c
