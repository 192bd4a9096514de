"""hostile.py HOST PORT IDLE SLOW SECONDS: clients that would starve a
server of connections or of its time, for tests/serve.sh.

Opens IDLE connections that never send a byte and SLOW that send a
request's headers a line every half second and never end them
(slowloris), prints "holding IDLE SLOW" once all are open, then for
SECONDS keeps the slow ones trickling and, meanwhile, opens connections
that send garbage (random bytes, a request line too long, a method that
is none) and close.  Prints the garbage sent and how many of the slow
and idle connections the server had closed by the end.
"""
import os
import resource
import socket
import sys
import time


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    idle, slow, seconds = int(sys.argv[3]), int(sys.argv[4]), \
        float(sys.argv[5])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    idles = [socket.create_connection((host, port)) for _ in range(idle)]
    slows = []
    for _ in range(slow):
        s = socket.create_connection((host, port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: refkit\r\n")
        slows.append(s)
    print("holding %d %d" % (idle, slow), flush=True)
    garbage = [os.urandom(300), b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n",
               b"FROB / HTTP/1.1\r\nHost: x\r\n\r\n", b"\r\n\r\n\r\n",
               b"GET / HTTP/9.9\r\n\r\n"]
    sent = 0
    closed = 0
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        for s in slows:
            try:
                s.sendall(b"X-Slow-%d: x\r\n" % n)
            except OSError:
                closed += 1
        n += 1
        for g in garbage:
            try:
                c = socket.create_connection((host, port), timeout=2)
                c.sendall(g)
                c.close()
                sent += 1
            except OSError:
                pass
        time.sleep(0.5)
    shut = 0
    for s in idles:
        s.setblocking(False)
        try:
            if s.recv(1) == b"":
                shut += 1
        except BlockingIOError:
            pass
        except OSError:
            shut += 1
    print("garbage %d, slow refused %d times, idle closed %d" %
          (sent, closed, shut), flush=True)


main()
