"""A real headless Chromium for page tests, driven over the DevTools protocol on a pipe:
one browser for many pages, each loaded as a phone shows it; what a person sees is the
page's innerText, and a screenshot of the whole page is kept for people to look at."""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote

PHONE = {"width": 412, "height": 915, "deviceScaleFactor": 1, "mobile": True}


def chromium_binary() -> str | None:
    return next(
        (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
    )


def _high(fd: int) -> int:
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


class Page:
    def __init__(self, text: str, facts: dict, screenshot: bytes):
        self.text, self.facts, self.screenshot = text, facts, screenshot


class Browser:
    def __init__(self, binary: str):
        self.profile = tempfile.mkdtemp(prefix="mailref-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        # Above 10, so that putting them at 3 and 4 in the child cannot overwrite one another.
        to_child_r, from_child_w = (_high(fd) for fd in (to_child_r, from_child_w))
        args = [
            binary,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
            "about:blank",
        ]
        # The protocol pipe is the child's fds 3 (commands in) and 4 (answers out).
        self.proc = subprocess.Popen(
            ["bash", "-c", f'exec "$@" 3<&{to_child_r} 4>&{from_child_w}', "bash", *args],
            pass_fds=(to_child_r, from_child_w),
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(self.profile, "stderr"), "wb"),
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self._events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.call("Page.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, **PHONE)

    def _read(self, timeout: float = 60.0) -> dict:
        end = time.monotonic() + timeout
        while b"\0" not in self._buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self._from_child], [], [], left)[0]:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, session: bool = False, **params) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self._events.append(answer)

    def _wait_event(self, method: str, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self._events):
                if e.get("method") == method:
                    del self._events[: i + 1]
                    return
            if time.monotonic() > end:
                raise TimeoutError(f"no {method}")
            self._events.append(self._read(timeout))

    def evaluate(self, expression: str):
        r = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        return r["result"].get("value")

    def open(self, path: Path, shot: Path | None = None) -> Page:
        """Load PATH from file:// as a phone would; its visible text, layout facts and a full-page
        screenshot."""
        self._events.clear()
        url = path.resolve().as_uri()
        self.call("Page.navigate", session=True, url=url)
        self._wait_event("Page.loadEventFired")
        # A load event still on its way from the page before (the first about:blank) is no
        # sign of this one: read nothing before this page is the one loaded.
        end = time.monotonic() + 30
        while True:
            state, href = self.evaluate("[document.readyState, location.href]")
            if state == "complete" and unquote(href) == unquote(url):
                break
            if time.monotonic() > end:
                raise TimeoutError(f"{url} did not load (still {href}, {state})")
            time.sleep(0.05)
        facts = self.evaluate("""({
            title: document.title,
            scripts: document.querySelectorAll('script').length,
            overflow: document.documentElement.scrollWidth - window.innerWidth,
            stylesheet: getComputedStyle(document.body).maxWidth,
            links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')),
            images: [...document.querySelectorAll('img')].map(i => ({alt: i.alt, loaded: \
i.complete && i.naturalWidth > 0})),
            svgs: document.querySelectorAll('svg').length,
        })""")
        text = self.evaluate("document.body.innerText")
        size = self.call("Page.getLayoutMetrics", session=True)["cssContentSize"]
        png = base64.b64decode(
            self.call(
                "Page.captureScreenshot",
                session=True,
                format="png",
                captureBeyondViewport=True,
                clip={
                    "x": 0,
                    "y": 0,
                    "width": PHONE["width"],
                    "height": min(size["height"], 6000),
                    "scale": 1,
                },
            )["data"]
        )
        if shot:
            shot.parent.mkdir(parents=True, exist_ok=True)
            shot.write_bytes(png)
        return Page(text, facts, png)

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._to_child)
        os.close(self._from_child)
        shutil.rmtree(self.profile, ignore_errors=True)
