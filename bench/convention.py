#!/usr/bin/python3
"""convention.py BUILD-DIR OUT-DIR [options]: a convention day, simulated
end to end over the built tools (issue #42), seeded.

Every table is a GM with a station of its own (an SQLite file); a hub
(another) stands for the organiser's machine.  The day:

  - the roster (--characters, default 2,000, made from the seed) is
    imported at the hub, and every station takes it by a merge;
  - each table plays games one after another (below), the fighters drawn
    from the roster (no character at two tables at once), the GM's every
    command a process of the built tool, as at a real table: the start,
    initiative, then each fighter in the initiative order attacks (the
    cards drawn by the tool, or physical ones typed), strikes with the
    mind, passes, or the GM rules (adjust) or takes an event back
    (undo); Clean Up and the next round, until one side is down or the
    GM ends it by agreement.  Between two commands the GM thinks for a
    time a referee would recognise (a log-normal of median 20 s, a
    minute at the 95th percentile; a few minutes between combats),
    compressed by --speed (default 600: an hour in six seconds); the
    tools' clock (REFKIT_NOW) is the day's;
  - now and then a station edits a character's notes, sometimes one
    that another station edits too, which the hub finds as a conflict
    when it merges and settles by its policy (--prefer theirs: the
    station merged last wins), the stations then taking the hub's;
  - at every simulated hour each station merges with the hub (the hub
    takes the station's changes, then the station the hub's), unless it
    is offline that hour (--offline, the chance of it: default 0.2),
    when its changes wait for its next exchange; at noon
    the hub imports the roster again, with changes (--replace);
  - at the end, a full exchange (the hub merges every station, then
    every station the hub), after which every station and the hub hold
    the same rows in every table that travels (sorted dumps compared),
    refkit verify passes everywhere (each chain checked and each log
    replayed), and crs-combat report is written for the day at the hub.

It prints one summary: commands a second, the latency of the table
commands (median, 99th percentile, worst, by command), refusals,
conflicts met and settled, merges and their times, the report's time,
the peak memory of the largest process, and whether every check held
(exit 0), else what did not (exit 1, the seed named: rerun with it).

The tables play the seeds' whole mix: CRS combats (55%), Avatar 2.6
combats with items, powers, flees, charges and blows (15%), Force
Battles duels, Battle Grounds games and scenes of D6 rolls (10% each;
bench/convention_games.py, whose setup at the hub makes the items,
powers, duelists, D6 characters and teams they use).  With --server, a
share of the tables (--server-tables) plays on a PostgreSQL server
instead, which exchanges with the hub every hour as a station does.
"""
import argparse
import csv
import json
import math
import os
import random
import re
import resource
import sqlite3
import subprocess
import sys
import threading
import time

import convention_games as games

DAY_START = 9 * 3600          # 09:00 of the simulated day


def shown(db):
    """A database as the summary names it: a file by its name, the
    server as "the server"."""
    return "the server" if db.startswith("postgresql:") else \
        os.path.basename(db)
THINK_MEDIAN = 20.0           # seconds between two commands, simulated
THINK_SIGMA = 0.7             # log-normal: 95th percentile about a minute
BREAK_MEDIAN = 180.0          # between two combats


class Clock:
    """The day's time.  Concurrent: real time sped up by speed, every
    table at once.  Serial (--serial): a simulated clock, and one table
    at a time, the one whose next step is the earliest (ties to the
    lower number): the same seed plays the same day, command for
    command, whatever the machine, so that a failing seed can be played
    again."""

    def __init__(self, day0, speed, serial):
        self.day0, self.speed, self.serial = day0, speed, serial
        self.t0 = time.monotonic()
        self.cond = threading.Condition()
        self.vnow = day0
        self.wake = {}                # who -> its next step's time
        self.baton = None

    def now(self):
        if self.serial:
            return self.vnow
        return self.day0 + int((time.monotonic() - self.t0) * self.speed)

    def join(self, who, at):
        """Serial: who takes part, its first step at time at."""
        with self.cond:
            self.wake[who] = at

    def _pass_on(self):
        if self.wake:
            who = min(self.wake, key=lambda w: (self.wake[w], w))
            self.vnow = max(self.vnow, self.wake.pop(who))
            self.baton = who
        else:
            self.baton = None
        self.cond.notify_all()

    def go(self):
        with self.cond:
            # The day starts now, not when the setup began.
            self.t0 = time.monotonic()
            self._pass_on()

    def wait_turn(self, who):
        if not self.serial:
            return
        with self.cond:
            while self.baton != who:
                self.cond.wait()

    def sleep(self, who, seconds):
        if not self.serial:
            time.sleep(seconds / self.speed)
            return
        with self.cond:
            self.wake[who] = self.vnow + max(1, int(seconds))
            self._pass_on()
            while self.baton != who:
                self.cond.wait()

    def leave(self, who):
        if self.serial:
            with self.cond:
                self._pass_on()


class Day:
    """What every table shares: the clock, the roster, the figures."""

    def __init__(self, args):
        self.args = args
        self.bin = os.path.abspath(args.build)
        self.out = os.path.abspath(args.out)
        self.lock = threading.Lock()
        self.hub_lock = threading.Lock()
        base = int(time.time())
        self.day0 = base - base % 86400 + DAY_START
        self.clock = Clock(self.day0, args.speed, args.serial)
        self.hours = args.hours
        self.free = []                # characters at no table
        self.latency = {}             # command -> [seconds]
        self.lat_kind = {"station": [], "server": []}
        self.refused = {}             # command -> count
        self.refusals = []            # a few, to show
        self.merges = []              # seconds
        self.conflicts = 0
        self.settled = 0
        self.commands = 0
        self.failures = []
        self.noon_done = False
        self.offline = 0

    def now(self):
        return self.clock.now()

    def over(self):
        return self.now() >= self.day0 + self.hours * 3600

    def sleep_sim(self, seconds):
        # Never past the end of the day, so that the day ends on time.
        end = self.day0 + self.hours * 3600
        seconds = max(1, min(seconds, end - self.now() + 1))
        self.clock.sleep(threading.current_thread().name, seconds)

    def run(self, db, argv, what=None, table=None, ok_codes=(0,)):
        """Runs a tool on db at the day's time; returns (code, out, err).
        A table's command (what not None) is timed and counted."""
        env = dict(os.environ, REFKIT_DB=db, REFKIT_NOW=str(self.now()),
                   LC_ALL="C", TZ="UTC")
        if table is not None:
            env["REFKIT_GM"] = table
        t = time.monotonic()
        p = subprocess.run([os.path.join(self.bin, argv[0])] + argv[1:],
                           env=env, capture_output=True, text=True)
        dt = time.monotonic() - t
        if what is not None:
            with self.lock:
                self.commands += 1
                self.latency.setdefault(what, []).append(dt)
                self.lat_kind["server" if db.startswith("postgresql:")
                              else "station"].append(dt)
                if p.returncode not in ok_codes:
                    self.refused[what] = self.refused.get(what, 0) + 1
                    if len(self.refusals) < 8:
                        self.refusals.append("%s at %s, %s: %s" % (
                            table or "", time.strftime(
                                "%H:%M:%S", time.gmtime(self.now())),
                            " ".join(argv), p.stderr.strip()))
        return p.returncode, p.stdout, p.stderr

    def must(self, db, argv, **kw):
        code, out, err = self.run(db, argv, **kw)
        if code != 0:
            raise RuntimeError("%s on %s: exit %d: %s" % (
                " ".join(argv), shown(db), code, err.strip()))
        return out

    def take(self, rng, n):
        """n characters at no table, or fewer if the roster runs short."""
        with self.lock:
            rng.shuffle(self.free)
            got, self.free = self.free[:n], self.free[n:]
        return got

    def give_back(self, names):
        with self.lock:
            self.free.extend(names)

    def merge(self, into, other, prefer=None):
        """refkit merge, timed; counts the conflicts it settled."""
        argv = ["refkit", "merge"] + (["--prefer", prefer] if prefer
                                      else []) + [other]
        t = time.monotonic()
        code, out, err = self.run(into, argv)
        dt = time.monotonic() - t
        if code != 0:
            raise RuntimeError("merge of %s into %s: %s" % (
                shown(other), shown(into),
                err.strip()))
        settled = sum(int(m) for m in re.findall(
            r"; (\d+) conflicts? settled$", out, re.M))
        with self.lock:
            with open(os.path.join(self.out, "merges.log"), "a") as f:
                f.write("%d %s <- %s%s\n%s%s" % (
                    self.now(), shown(into), shown(other),
                    " --prefer " + prefer if prefer else "", out, err))
            self.merges.append(dt)
            self.settled += settled
            self.conflicts += (out + err).count("changed at both")


def roster(rng, n, path, changed=None):
    """A roster of n characters as CSV; changed (a set of indexes) gets
    other stats, for the noon import."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "OR", "DR", "MIND", "LIFE", "IN", "player"])
        for i in range(n):
            bump = 1 if changed and i in changed else 0
            w.writerow(["Char%05d" % i, 5 + i % 5 + bump, 4 + i % 4,
                        3 + i % 3, 30 + 5 * (i % 4) + bump, 1 + i % 4,
                        "Player %d" % i])


def think(rng, median=THINK_MEDIAN):
    return median * math.exp(THINK_SIGMA * rng.gauss(0, 1))


def status(day, db, table):
    code, out, _ = day.run(db, ["crs-combat", "--json", "status"],
                           what="status", table=table)
    if code != 0:
        return None
    return json.loads(out)


def play_combat(day, db, table, rng, fighters):
    """One combat at table: start, rounds, end.  Every command's draws
    have a seed from the table's (--seed), so that a serial day is the
    same day each time."""
    def g(argv, what):
        argv = argv[:1] + ["--seed", str(rng.randrange(1 << 62))] + \
            argv[1:]
        return day.run(db, argv, what=what, table=table)

    code, _, _ = g(["crs-combat", "start"] + fighters, "start")
    if code != 0:
        return
    rounds = rng.randint(2, 6)
    for rnd in range(rounds):
        if day.over():
            break
        day.sleep_sim(think(rng))
        g(["crs-combat", "init"], "init")
        s = status(day, db, table)
        if s is None:
            break
        up = [c for c in s["combatants"] if not c["down"] and
              not c["dead"] and not c["fled"]]
        if len(up) < 2:
            break
        # Each fighter in turn, as the board says who is next.
        while s is not None and s.get("next"):
            day.sleep_sim(think(rng))
            me = s["next"]
            foes = [x["name"] for x in up if x["name"] != me]
            r = rng.random()
            if r < 0.45:
                argv = ["crs-combat", "attack", me, rng.choice(foes)]
                if rng.random() < 0.3:
                    argv += ["--card", str(rng.randint(2, 9)),
                             "--vs-card", str(rng.randint(2, 9))]
                what = "attack"
            elif r < 0.6:
                argv = ["crs-combat", "mental", me, rng.choice(foes)]
                what = "mental"
            elif r < 0.92:
                argv = ["crs-combat", "pass", me]
                what = "pass"
            else:
                argv = ["crs-combat", "adjust", rng.choice(foes),
                        "LIFE=-%d" % rng.randint(1, 3), "--reason",
                        "a prop hit, as the marshal saw it"]
                what = "adjust"
            code, _, _ = g(argv, what)
            if code == 0 and what != "adjust" and rng.random() < 0.03:
                # Taken back and done again, as a GM corrects a typo.
                if g(["crs-combat", "undo"], "undo")[0] == 0:
                    g(argv, what)
            if code != 0 and what != "adjust":
                g(["crs-combat", "pass", me], "pass")
            s = status(day, db, table)
            if s is not None:
                up = [c for c in s["combatants"] if not c["down"] and
                      not c["dead"] and not c["fled"]]
        day.sleep_sim(think(rng))
        g(["crs-combat", "round"], "round")
    g(["crs-combat", "end", "--agreed"], "end")


class Table(threading.Thread):
    def __init__(self, day, k, seed, server=None):
        super().__init__(name="T%04d" % k)
        self.day = day
        self.k = k
        self.rng = random.Random(seed)
        # A table on the server writes there live, with nothing to merge.
        self.server = server is not None
        self.db = server or os.path.join(day.out, "station-%04d.db" % k)
        self.hour = 0
        self.error = None

    def sync(self):
        """The station and the hub exchange their changes."""
        hub = os.path.join(self.day.out, "hub.db")
        with self.day.hub_lock:
            self.day.merge(hub, self.db, prefer="theirs")
        self.day.merge(self.db, hub, prefer="theirs")

    def hourly(self):
        """The hour's exchange with the hub, unless the station is offline
        (a laptop closed, the network down: its changes wait for the next
        one).  A table on the server has nothing to exchange."""
        d = self.day
        if self.server:
            return
        if self.rng.random() < d.args.offline:
            with d.lock:
                d.offline += 1
        else:
            self.sync()

    def edit_note(self):
        """A character's notes, now and then one another table edits."""
        n = self.day.args.characters
        i = self.rng.randrange(4) if self.rng.random() < 0.5 else \
            self.rng.randrange(n)
        code, _, err = self.day.run(
            self.db, ["crs-stats", "set", "Char%05d" % i,
                      "notes=seen at table %d, hour %d" % (self.k,
                                                           self.hour)],
            what="set", table=self.name)
        with self.day.lock:
            with open(os.path.join(self.day.out, "merges.log"), "a") as f:
                f.write("%d %s set Char%05d notes (exit %d)\n" % (
                    self.day.now(), shown(self.db), i, code))

    def play(self):
        """The table's next game: a CRS combat most often, else an
        Avatar 2.6 one, a Force Battles duel, a Battle Grounds game or a
        scene of D6 rolls (bench/convention_games.py)."""
        d, rng, made = self.day, self.rng, self.day.made
        r = rng.random()
        if r >= 0.7:
            play = games.play_duel if r < 0.8 else games.play_game if \
                r < 0.9 else games.play_d6
            play(d, self.db, self.name, rng, made, think=think)
            return
        fighters = d.take(rng, rng.randint(2, 5))
        if len(fighters) < 2:
            d.give_back(fighters)
            d.sleep_sim(60)
            return
        try:
            if r < 0.55:
                play_combat(d, self.db, self.name, rng, fighters)
            else:
                games.play_avatar(d, self.db, self.name, rng, fighters,
                                  made, think=think)
        finally:
            d.give_back(fighters)

    def run(self):
        d = self.day
        d.clock.wait_turn(self.name)
        try:
            while not d.over():
                h = (d.now() - d.day0) // 3600
                if h > self.hour:
                    self.hour = h
                    self.hourly()
                if self.rng.random() < 0.5:
                    self.edit_note()
                self.play()
                d.sleep_sim(think(self.rng, BREAK_MEDIAN))
        except Exception as e:      # the summary says it; the day fails
            self.error = "%s: %s" % (self.name, e)
        finally:
            d.clock.leave(self.name)


class ServerLink(threading.Thread):
    """The server is a station too: every hour the hub takes its changes
    and it takes the hub's, as a station does (it is never offline)."""

    def __init__(self, day):
        super().__init__(name="server-link")
        self.day = day

    def run(self):
        d = self.day
        hub = os.path.join(d.out, "hub.db")
        d.clock.wait_turn(self.name)
        try:
            hour = 0
            while not d.over():
                d.sleep_sim(60)
                h = (d.now() - d.day0) // 3600
                if h > hour and not d.over():
                    hour = h
                    with d.hub_lock:
                        d.merge(hub, d.args.server, prefer="theirs")
                    d.merge(d.args.server, hub, prefer="theirs")
        except Exception as e:
            d.failures.append("the server's exchange: %s" % e)
        finally:
            d.clock.leave(self.name)


class Organiser(threading.Thread):
    """The organiser: at noon, the roster again at the hub, changed."""

    def __init__(self, day, rng):
        super().__init__(name="organiser")
        self.day, self.rng = day, rng

    def run(self):
        d = self.day
        d.clock.wait_turn(self.name)
        try:
            noon = d.day0 + 3 * 3600
            while d.now() < noon and not d.over():
                d.sleep_sim(min(60, noon - d.now()))
            if d.now() < noon:
                return
            n = d.args.characters
            changed = set(self.rng.sample(range(n), max(1, n // 20)))
            path = os.path.join(d.out, "roster-noon.csv")
            roster(self.rng, n, path, changed)
            hub = os.path.join(d.out, "hub.db")
            t = time.monotonic()
            with d.hub_lock:
                d.must(hub, ["crs-stats", "import", "--replace", path])
            d.noon = time.monotonic() - t
            d.noon_done = True
            with open(os.path.join(d.out, "merges.log"), "a") as f:
                f.write("%d hub.db import --replace (%d changed)\n" % (
                    d.now(), len(changed)))
        except Exception as e:
            d.failures.append("the noon import: %s" % e)
        finally:
            d.clock.leave(self.name)


def travelling(db):
    """Every row of every table that travels, sorted, as text."""
    c = sqlite3.connect(db)
    names = [r[0] for r in c.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT"
        " IN ('change', 'change_rest', 'change_staged', 'gone',"
        " 'station_self', 'snapshot', 'history', 'history_combat',"
        " 'seal_secret') AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name")]
    rows = []
    for n in names:
        for r in c.execute('SELECT * FROM "%s"' % n):
            rows.append(n + "|" + "|".join(repr(v) for v in r))
    c.close()
    rows.sort()
    return rows


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))] if v else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("out")
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--characters", type=int, default=2000)
    ap.add_argument("--hours", type=float, default=8)
    ap.add_argument("--speed", type=float, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server", metavar="URL",
                    help="a PostgreSQL database, empty, for the tables "
                    "that play on the server")
    ap.add_argument("--server-tables", type=int, default=None,
                    help="how many of the tables play on the server "
                    "(default a quarter, with --server)")
    ap.add_argument("--offline", type=float, default=0.2,
                    help="the chance that a station is offline at an "
                    "hourly exchange (default 0.2)")
    ap.add_argument("--serial", action="store_true",
                    help="one table at a time on a simulated clock: the "
                    "same seed, the same day")
    args = ap.parse_args()
    if not args.server:
        args.server_tables = 0
    elif args.server_tables is None:
        args.server_tables = args.tables // 4
    args.server_tables = max(0, min(args.tables, args.server_tables))
    os.makedirs(args.out, exist_ok=True)
    for f in os.listdir(args.out):
        if f.endswith((".db", ".db-wal", ".db-shm", ".csv", ".html",
                       ".log")):
            os.unlink(os.path.join(args.out, f))
    day = Day(args)
    rng = random.Random(args.seed)
    hub = os.path.join(day.out, "hub.db")
    t_start = time.monotonic()

    path = os.path.join(day.out, "roster.csv")
    roster(rng, args.characters, path)
    day.must(hub, ["crs-stats", "import", path])
    day.must(hub, ["refkit", "station", "rename", "hub"])
    day.made = games.setup_games(day, hub,
                                 random.Random(rng.randrange(1 << 30)))
    day.free = ["Char%05d" % i for i in range(args.characters)]
    first_on_server = args.tables - args.server_tables + 1
    tables = [Table(day, k, rng.randrange(1 << 30),
                    args.server if k >= first_on_server else None)
              for k in range(1, args.tables + 1)]
    stations = [t for t in tables if not t.server]
    for t in stations:
        day.must(t.db, ["refkit", "--station", "table-%04d" % t.k,
                        "merge", hub])
    if args.server:
        day.must(args.server, ["refkit", "--station", "server", "merge",
                               hub])
    org = Organiser(day, random.Random(rng.randrange(1 << 30)))
    everyone = tables + [org] + ([ServerLink(day)] if args.server else [])
    for i, t in enumerate(everyone):
        day.clock.join(t.name, day.day0 + i)
    for t in everyone:
        t.start()
    day.clock.go()
    for t in everyone:
        t.join()
    played = time.monotonic() - t_start
    for t in tables:
        if t.error:
            day.failures.append(t.error)

    # The end of the day: every station to the hub, the hub to each.
    t = time.monotonic()
    others = [tb.db for tb in stations] + ([args.server] if args.server
                                           else [])
    for db in others:
        day.merge(hub, db, prefer="theirs")
    for db in others:
        day.merge(db, hub, prefer="theirs")
    exchange = time.monotonic() - t
    want = travelling(hub)
    differ = [os.path.basename(tb.db) for tb in stations
              if travelling(tb.db) != want]
    if args.server:
        # The server's rows, as a new file that takes them all holds them
        # (but for that file's own row of the station table).
        check = os.path.join(day.out, "server-copy.db")
        day.must(check, ["refkit", "--station", "server-copy", "merge",
                         args.server])
        me = sqlite3.connect(check).execute(
            "SELECT id FROM station_self").fetchone()[0]
        if [r for r in travelling(check) if not r.startswith(
                "station|%r|" % me)] != want:
            differ.append("the server")
    if differ:
        day.failures.append("the stations differ from the hub: " +
                            ", ".join(differ[:5]))
    t = time.monotonic()
    for db in [hub] + others:
        code, _, err = day.run(db, ["refkit", "verify"])
        if code != 0:
            day.failures.append("verify %s: %s" % (shown(db),
                                                   err.strip()[:300]))
    verify = time.monotonic() - t
    t = time.monotonic()
    code, _, err = day.run(hub, ["crs-combat", "report", "-o",
                                 os.path.join(day.out, "report.html")])
    report = time.monotonic() - t
    if code != 0:
        day.failures.append("report: " + err.strip())
    combats = sqlite3.connect(hub).execute(
        "SELECT (SELECT count(*) FROM combat), (SELECT count(*) FROM"
        " event)").fetchone()

    all_lat = [x for v in day.latency.values() for x in v]
    print("a convention day: %d tables (%d on stations, %d on the server), "
          "%d characters, %.1f hours %s (%.1f s), seed %d" % (
              args.tables, len(stations), args.server_tables,
              args.characters, args.hours,
              "one table at a time" if args.serial else
              "at %gx" % args.speed, played, args.seed))
    print("  %d table commands, %.1f a second; %d combats, %d events at "
          "the hub" % (day.commands, day.commands / played, combats[0],
                       combats[1]))
    print("  latency of a table command: median %.1f ms, 99th percentile "
          "%.1f ms, worst %.1f ms" % (1000 * pct(all_lat, 0.5),
                                      1000 * pct(all_lat, 0.99),
                                      1000 * max(all_lat or [0])))
    for kind in ("station", "server"):
        v = day.lat_kind[kind]
        if v:
            print("    on a %-7s %6d  median %6.1f ms  p99 %7.1f ms  "
                  "worst %7.1f ms" % (kind, len(v), 1000 * pct(v, 0.5),
                                      1000 * pct(v, 0.99), 1000 * max(v)))
    for what in sorted(day.latency):
        v = day.latency[what]
        print("    %-8s %6d  median %6.1f ms  p99 %7.1f ms  worst %7.1f "
              "ms  refused %d" % (what, len(v), 1000 * pct(v, 0.5),
                                  1000 * pct(v, 0.99), 1000 * max(v),
                                  day.refused.get(what, 0)))
    for r in day.refusals:
        print("    refused: " + r)
    print("  hourly exchanges missed by a station offline: %d" %
          day.offline)
    print("  merges: %d, median %.1f ms, worst %.1f ms; conflicts met %d, "
          "settled %d; the last exchange %.2f s" % (
              len(day.merges), 1000 * pct(day.merges, 0.5),
              1000 * max(day.merges or [0]), day.conflicts, day.settled,
              exchange))
    if day.noon_done:
        print("  the noon import at the hub: %.2f s" % day.noon)
    print("  verify at every station and the hub: %.2f s; the report: "
          "%.2f s" % (verify, report))
    print("  peak memory of the largest process: %.1f MB" % (
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024))
    if day.failures:
        for f in day.failures:
            print("  FAILED: " + f)
        print("the day failed: seed %d" % args.seed)
        return 1
    print("  every check held: the stations hold the hub's rows, every "
          "chain and replay verifies, the report is written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
