"""viewers.py HOST PORT PATH N PID -- COMMAND...: N viewers of one
page's stream of events (refkit serve, process PID), for bench/serve.sh.

Opens N connections to PATH's stream (/events/...), waits until each has
its first event (the page as it is), prints "rss KB", the server's
resident memory then, then runs COMMAND
(a GM's action) and waits for each viewer's next event.  Prints the time
from COMMAND's end to the first and to the last viewer's having it, in
ms, and how many had it: "first F last L of N".  One thread, epoll.
"""
import resource
import selectors
import socket
import subprocess
import sys
import time


def main():
    host, port, path, n, pid = sys.argv[1], int(sys.argv[2]), \
        sys.argv[3], int(sys.argv[4]), sys.argv[5]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sel = selectors.DefaultSelector()
    seen = {}
    for i in range(n):
        s = socket.create_connection((host, port))
        s.sendall(("GET %s HTTP/1.1\r\nHost: bench\r\n"
                   "Accept: text/event-stream\r\n\r\n" % path).encode())
        s.setblocking(False)
        seen[s] = [0, b""]
        sel.register(s, selectors.EVENT_READ)

    def pump(want, deadline, at):
        got = {}
        while len(got) < n and time.monotonic() < deadline:
            for key, _ in sel.select(timeout=0.5):
                s = key.fileobj
                data = s.recv(65536)
                if not data:
                    sel.unregister(s)
                    continue
                st = seen[s]
                st[1] = (st[1] + data)[-64:]
                st[0] += data.count(b"event: board")
                if st[0] >= want and s not in got:
                    got[s] = time.monotonic() - at
        return got

    t = time.monotonic()
    if len(pump(1, t + 60, t)) < n:
        sys.exit("not every viewer had the page")
    with open("/proc/%s/status" % pid) as f:
        rss = [l.split()[1] for l in f if l.startswith("VmRSS:")][0]
    print("rss %s" % rss, flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    t0 = time.monotonic()
    got = pump(2, t0 + 30, t0)
    times = sorted(got.values())
    print("first %.1f last %.1f of %d" % (times[0] * 1000, times[-1] * 1000,
                                          len(times)), flush=True)


main()
