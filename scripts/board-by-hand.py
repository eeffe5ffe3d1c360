#!/usr/bin/env python3
"""Tries the web board by hand, scripted: a headless Chromium over ChromeDriver (Debian's
`chromium` and `chromium-driver`, as the browser tests use), driven by real input events at
screen coordinates (WebDriver pointer actions: a mouse, or a finger on a phone) and keys, with
screenshots to look at. No package beyond Python's standard library.

    perfectplay serve --no-solve --port 8377 &
    scripts/board-by-hand.py --url http://127.0.0.1:8377/ --size 390x844 --touch \
        --variant dobutsu --how drag --shots /tmp/shots

Plays one whole game at level 1 against the engine (random legal moves, by taps or clicks, or
by drag and drop for Dobutsu), watching all the while that the page never scrolls sideways;
prints the moves, the result banner, any error shown and any sideways overflow seen, and saves
screenshots after 3 moves and at the end.
"""

import argparse
import base64
import json
import os
import random
import socket
import subprocess
import time
import urllib.error
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p


class B:
    def __init__(self, w, h, touch=False, emulate=None):
        self.port = free_port()
        self.drv = subprocess.Popen(["/usr/bin/chromedriver", f"--port={self.port}"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                self.req("GET", "/status"); break
            except Exception:
                time.sleep(0.1)
        opts = {"binary": "/usr/bin/chromium", "args": ["--headless=new", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={w},{h}"]}
        if emulate or touch:
            opts["mobileEmulation"] = {"deviceMetrics": {"width": w, "height": h, "pixelRatio": 1.0,
                                                         "touch": touch, "mobile": touch}}
        v = self.req("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": opts}}})
        self.sid = v["sessionId"]

    def req(self, method, path, body=None):
        data = None if method in ("GET", "DELETE") else json.dumps(body or {}).encode()
        r = urllib.request.Request(self.base + path, data=data, method=method,
                                   headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(r, timeout=120) as f:
                return json.loads(f.read())["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path}: {e.read()[:500]}")

    def cmd(self, method, what, body=None):
        return self.req(method, f"/session/{self.sid}{what}", body)

    def go(self, url): self.cmd("POST", "/url", {"url": url})
    def js(self, script, *args): return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def el(self, css):
        return self.cmd("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def click(self, css): self.cmd("POST", f"/element/{self.el(css)}/click")

    def keys(self, css, text): self.cmd("POST", f"/element/{self.el(css)}/value", {"text": text})

    def press(self, *keys):
        acts = []
        for k in keys:
            acts += [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]
        self.cmd("POST", "/actions", {"actions": [{"type": "key", "id": "kb", "actions": acts}]})

    def center(self, css):
        return self.js("const r=document.querySelector(arguments[0]).getBoundingClientRect();"
                       "return [r.x+r.width/2, r.y+r.height/2]", css)

    def pointer(self, kind, steps):
        """steps: list of ('move', x, y, ms) | ('down',) | ('up',) in viewport coordinates."""
        acts = []
        for s in steps:
            if s[0] == "move":
                acts.append({"type": "pointerMove", "duration": s[3] if len(s) > 3 else 0,
                             "origin": "viewport", "x": int(s[1]), "y": int(s[2])})
            elif s[0] == "down":
                acts.append({"type": "pointerDown", "button": 0})
            elif s[0] == "up":
                acts.append({"type": "pointerUp", "button": 0})
            elif s[0] == "pause":
                acts.append({"type": "pause", "duration": s[1]})
        self.cmd("POST", "/actions", {"actions": [{"type": "pointer", "id": kind + "p",
                 "parameters": {"pointerType": kind}, "actions": acts}]})
        self.cmd("DELETE", "/actions")

    def tap_at(self, x, y, kind="mouse"):
        self.pointer(kind, [("move", x, y), ("down",), ("up",)])

    def tap(self, css, kind="mouse"):
        x, y = self.center(css); self.tap_at(x, y, kind)

    def drag(self, a, b, kind="mouse"):
        (x0, y0), (x1, y1) = self.center(a), self.center(b)
        self.pointer(kind, [("move", x0, y0), ("down",), ("move", x1, y1, 300), ("up",)])

    def shot(self, path):
        open(path, "wb").write(base64.b64decode(self.cmd("GET", "/screenshot")))

    def wait(self, script, t=60):
        end = time.time() + t
        while time.time() < end:
            v = self.js(script)
            if v:
                return v
            time.sleep(0.2)
        raise RuntimeError("timeout: " + script + " | " + str(self.js(
            "return document.getElementById('status').innerText+' | '+document.getElementById('error').innerText")))

    def resize(self, w, h):
        self.cmd("POST", "/window/rect", {"width": w, "height": h})

    def quit(self):
        try:
            self.req("DELETE", f"/session/{self.sid}")
        finally:
            self.drv.kill(); self.drv.wait()



WATCH = """window.__ov = window.__ov || []; setInterval(() => { const d = document.documentElement;
  if (d.scrollWidth > d.clientWidth) window.__ov.push([d.scrollWidth, d.clientWidth]); }, 25);"""


def square(e):
    return f'[data-square="{e}"]'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="the board's address")
    ap.add_argument("--size", default="1280x800", help="WIDTHxHEIGHT in CSS pixels")
    ap.add_argument("--touch", action="store_true", help="a phone: touch input, device emulation")
    ap.add_argument("--variant", default="abapa", choices=["abapa", "awari", "dobutsu"])
    ap.add_argument("--how", default="tap", choices=["tap", "drag"], help="drag: Dobutsu only")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shots", default=".", help="where the screenshots go")
    a = ap.parse_args()
    w, h = map(int, a.size.split("x"))
    kind = "touch" if a.touch else "mouse"
    rng = random.Random(a.seed)
    b = B(w, h, touch=a.touch, emulate=a.touch)
    try:
        b.go(f"{a.url}?variant={a.variant}&mode=play&theme=light")
        b.wait("return document.querySelectorAll('[data-square]').length > 0")
        b.js("const s = document.getElementById('level'); s.value = '1'; s.dispatchEvent(new Event('change'))")
        b.js(WATCH)
        played = 0
        while played < 300:
            if b.js("return !document.getElementById('result-banner').hidden"):
                break
            if "your move" not in b.js("return document.getElementById('status').innerText").lower():
                time.sleep(0.3)
                continue
            if a.variant == "dobutsu":
                pieces = b.js("return [...document.querySelectorAll('.movable')].map(e => e.dataset.square"
                              " ? '[data-square=\"' + e.dataset.square + '\"]' : '[data-hand=\"' + e.dataset.hand + '\"]')")
                if not pieces:
                    time.sleep(0.3)
                    continue
                piece = rng.choice(pieces)
                b.tap(piece, kind)
                targets = b.js("return [...document.querySelectorAll('.target')].map(e => e.dataset.square)")
                if not targets:
                    b.tap(piece, kind)
                    continue
                target = rng.choice(targets)
                if a.how == "drag":
                    b.tap(piece, kind)
                    b.drag(piece, square(target), kind)
                else:
                    b.tap(square(target), kind)
            else:
                legal = b.js("return [...document.querySelectorAll('[data-square].legal')].map(e => e.dataset.square)")
                if not legal:
                    time.sleep(0.3)
                    continue
                b.tap(square(rng.choice(legal)), kind)
            played += 1
            time.sleep(0.5)
            if played == 3:
                b.shot(os.path.join(a.shots, f"{a.variant}-{w}-{a.how}-early.png"))
        time.sleep(2)
        print("moves:", " ".join(b.js("return [...document.querySelectorAll('#move-list [data-move]')].map(e => e.dataset.move)")))
        print("banner:", b.js("return document.getElementById('result-banner').innerText"))
        print("error shown:", repr(b.js("return document.getElementById('error').innerText")))
        print("sideways overflow seen:", b.js("return window.__ov.slice(0, 5)"))
        b.shot(os.path.join(a.shots, f"{a.variant}-{w}-{a.how}-end.png"))
    finally:
        b.quit()


if __name__ == "__main__":
    main()
