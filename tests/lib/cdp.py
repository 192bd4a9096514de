"""cdp.py PORT URL TEXT TIMEOUT PNG -- COMMAND...: a live page in a real
browser, driven through the Chrome DevTools Protocol (Debian's
python3-websocket) of a headless Chromium listening on 127.0.0.1:PORT.

Opens URL in a new tab, waits until the page has loaded and its stream of
events is open, runs COMMAND (a GM's action, say), then reads the page's
live part (#live) every 20 ms until it holds TEXT.  Prints "shown after N
ms" (from COMMAND's end) and saves a screenshot of the page as PNG, exit
0; or says what it saw instead, exit 1.  No sleep stands for a wait: each
step waits for what it needs, within TIMEOUT seconds in all.

With CDP_PHONE=WIDTHxHEIGHT in the environment ("390x844"), the tab is a
phone's screen of that many CSS pixels, at twice their density, touch and
all (the page's viewport as a phone's browser sets it).  The screenshot
is of the whole page, below the screen's fold too.
"""
import base64
import os
import json
import subprocess
import sys
import time
import urllib.request

import websocket


class Tab:
    def __init__(self, port):
        req = urllib.request.Request(
            "http://127.0.0.1:%d/json/new?about:blank" % port, method="PUT")
        with urllib.request.urlopen(req, timeout=10) as r:
            target = json.load(r)
        self.ws = websocket.create_connection(
            target["webSocketDebuggerUrl"], timeout=10)
        self.n = 0

    def call(self, method, **params):
        self.n += 1
        self.ws.send(json.dumps({"id": self.n, "method": method,
                                 "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.n:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr,
                      returnByValue=True)
        return r.get("result", {}).get("value")


def until(deadline, what, test):
    while time.monotonic() < deadline:
        v = test()
        if v:
            return v
        time.sleep(0.02)
    sys.exit("not within the time: " + what)


def main():
    port, url, text, timeout, png = (int(sys.argv[1]), sys.argv[2],
                                     sys.argv[3], float(sys.argv[4]),
                                     sys.argv[5])
    cmd = sys.argv[sys.argv.index("--") + 1:]
    deadline = time.monotonic() + timeout
    tab = Tab(port)
    phone = os.environ.get("CDP_PHONE", "")
    if phone:
        w, h = (int(x) for x in phone.split("x"))
        tab.call("Emulation.setDeviceMetricsOverride", width=w, height=h,
                 deviceScaleFactor=2, mobile=True)
        tab.call("Emulation.setTouchEmulationEnabled", enabled=True)
    tab.call("Page.enable")
    tab.call("Page.navigate", url=url)
    until(deadline, "the page loads", lambda: tab.js(
        "document.readyState === 'complete' && "
        "!!document.getElementById('live')"))
    # The page's script marks it live once its stream is open.
    until(deadline, "the stream of events opens", lambda: tab.js(
        "document.getElementById('live').getAttribute('data-live') "
        "=== 'on'"))
    if text in (tab.js("document.getElementById('live').innerText") or ""):
        sys.exit("the page shows '%s' before the command" % text)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    t0 = time.monotonic()
    while time.monotonic() < deadline:
        live = tab.js("document.getElementById('live').innerText") or ""
        if text in live:
            ms = (time.monotonic() - t0) * 1000
            size = tab.call("Page.getLayoutMetrics")["cssContentSize"]
            shot = tab.call("Page.captureScreenshot", format="png",
                            captureBeyondViewport=True,
                            clip={"x": 0, "y": 0, "width": size["width"],
                                  "height": size["height"], "scale": 1})
            with open(png, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            print("shown after %d ms" % ms)
            return
        time.sleep(0.02)
    sys.exit("'%s' not shown; the page shows:\n%s" % (text, live[-600:]))


main()
