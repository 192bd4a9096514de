"""convention_games.py: the rest of a convention day's action mix for
bench/convention.py (issue #42): Avatar 2.6 combats with items, powers,
flees, charges and blows; Force Battles duels; Battle Grounds games;
and D6 rolls.

Each game is a function in the style of convention.play_combat: a GM at
a table plays it with the built tools, one process a command, every
command through day.run(db, argv, what=..., table=...) so that it is
timed and its refusals counted, every command that draws cards or dice
with a --seed from the table's rng (a serial day plays the same day
again), the GM thinking between two commands (day.sleep_sim), and the
play stopping early once day.over().  Each follows the tool's own
state (its --json status or show) rather than firing blind: a refusal
is a rare thing, a GM's typo, and the play goes on after one.

  setup_games(day, hub, rng)       once at the hub, after the roster's
                                   import, before the stations copy it:
                                   the items, powers, duelists, D6
                                   characters and teams the games use;
                                   returns made, which the others take
  play_avatar(day, db, table, rng, fighters, made)
  play_duel(day, db, table, rng, made)
  play_game(day, db, table, rng, made)
  play_d6(day, db, table, rng, made)
  release_lockouts(day, made)      gives the day back the characters
                                   whose flee lockout has run out

The think times are convention.think's; every play function takes it
as think= too, so that the module imports nothing from convention (it
is imported from there) unless it is called without one.
"""
import json
import os
import re
import shutil
import threading

DUELISTS = 20                 # Force Battles duelists, Duelist01..
D6_CHARACTERS = 20            # D6 characters, Spacer01..
HOLDING = 0.3                 # the share of the roster given an item
KNOWING = 0.1                 # the share taught a power (and given EM)

# The CRS items and powers (as in tests/cli/crs-combat-actions.sh).
ITEMS = [
    ("Sword", ["or=+5", "range=short"]),
    ("Dagger", ["or=+2", "range=short"]),
    ("Great Axe", ["or=+8", "range=short", "full-or=yes"]),
    ("Bow", ["offense=+3", "range=long"]),
    ("Sling", ["offense=+1", "range=long"]),
    ("Shield", ["dr=+2"]),
    ("Chain Mail", ["dr=+3", "use=wearable"]),
    ("Ring of Wits", ["mind=+2", "use=continuous"]),
]
POWERS = [
    ("Fireball", ["em=10", "picks=2", "target=group", "defend=dr",
                  "bonus=2"]),
    ("Mind Spike", ["em=3", "picks=1", "defend=mind"]),
    ("Fire Dart", ["em=5", "picks=1", "defend=none"]),
]

# Force Battles stances that keep every limit of fb-duel(1): side, hand,
# colour, level and the words of the stance.
DUEL_SHEETS = [
    ("light", "right", "blue", "learner", []),
    ("dark", "left", "red", "learner", ["att=4", "lightning=1"]),
    ("light", "left", "green", "initiate",
     ["protect=2", "heal=1", "jump=1"]),
    ("dark", "right", "red", "initiate", ["lightning=2", "rage=2"]),
    ("light", "right", "purple", "templar",
     ["center=4", "att=6", "def=6", "protect=3", "jump=1", "absorb=1",
      "heal=1"]),
    ("dark", "left", "red", "templar",
     ["center=4", "att=6", "def=6", "choke=2", "rage=2", "lightning=2"]),
    ("light", "left", "yellow", "learner", ["def=4", "protect=1"]),
    ("dark", "right", "red", "learner", []),
]
FB_TARGETS = ["head", "left-arm", "right-arm", "torso", "left-leg",
              "right-leg"]

D6_ATTRIBUTES = ["dexterity", "knowledge", "mechanical", "perception",
                 "strength", "technical"]
D6_SKILLS = [("dexterity", "blaster"), ("dexterity", "dodge"),
             ("knowledge", "streetwise"), ("mechanical", "piloting"),
             ("perception", "search"), ("perception", "sneak"),
             ("strength", "brawling"), ("technical", "repair")]
D6_DIFFICULTIES = ["very-easy", "easy", "moderate", "difficult",
                   "very-difficult", "10", "12", "15", "18", "20"]

BG_TEAMS = ["red.team", "blue.team"]    # tests/fixtures/bg

REASONS = ["a prop hit, as the marshal saw it",
           "the prop sword broke",
           "healed by the plot team",
           "the player was not ready",
           "a counter rolled off the board",
           "misplaced at the start"]


def _default_think():
    import convention             # imported late: convention imports us
    return convention.think


class _Gm:
    """A GM at a table: runs the tools, thinks between two commands."""

    def __init__(self, day, db, table, rng, think):
        self.day, self.db, self.table, self.rng = day, db, table, rng
        self.think = think or _default_think()

    def run(self, argv, what, seed=True):
        """argv through day.run; seed puts --seed N after the tool, N
        from the table's rng (or seed itself, a number, to draw the same
        again); self.seed is the last one given."""
        if seed is not False:
            self.seed = self.rng.randrange(1 << 62) if seed is True \
                else seed
            argv = argv[:1] + ["--seed", str(self.seed)] + argv[1:]
        return self.day.run(self.db, argv, what=what, table=self.table)

    def pause(self):
        self.day.sleep_sim(self.think(self.rng))

    def json(self, argv, what):
        code, out, _ = self.run(argv, what, seed=False)
        if code != 0:
            return None
        try:
            return json.loads(out)
        except ValueError:
            return None


def _claim(made, key, rng, n):
    """n of made[key] that no other table has, or [] when too few."""
    with made["lock"]:
        busy = made.setdefault("busy", set())
        free = [x for x in made[key] if x not in busy]
        if len(free) < n:
            return []
        got = rng.sample(free, n)
        busy.update(got)
    return got


def _unclaim(made, names):
    with made["lock"]:
        made.setdefault("busy", set()).difference_update(names)


# --- setup -------------------------------------------------------------


def setup_games(day, hub, rng):
    """The shared records the games need, made at the hub with the real
    tools, so that every station takes them with the roster: CRS items
    and powers, held by a share of the roster (EM given to those with a
    power); the Force Battles duelists; the D6 characters; the Battle
    Grounds teams.  Returns what was made, by name."""
    made = {"lock": threading.Lock(), "lockouts": [], "busy": set()}

    # CRS items and powers, and who holds and knows them: the roster as
    # crs-stats exports it, a share of it given holdings (and EM, which
    # the roster has not) and imported again over itself (--replace).
    made["items"], made["powers"] = {}, {}
    for name, spec in ITEMS:
        day.must(hub, ["crs-stats", "item", "add", name] + spec)
    for name, spec in POWERS:
        day.must(hub, ["crs-stats", "power", "add", name] + spec)
    for row in json.loads(day.must(hub, ["crs-stats", "--json", "item",
                                         "list"])):
        made["items"][row["name"]] = {"range": row["range"],
                                      "use": row["use"]}
    for row in json.loads(day.must(hub, ["crs-stats", "--json", "power",
                                         "list"])):
        made["powers"][row["name"]] = {"em": row["em"],
                                       "target": row["target"],
                                       "defend": row["defend"]}
    sheets = json.loads(day.must(hub, ["crs-stats", "export", "--format",
                                       "json"]))
    holds, knows, changed = {}, {}, []
    item_names = [n for n, _ in ITEMS]
    for sh in sheets:
        got = False
        if rng.random() < HOLDING:
            sh["items"] = sorted(set(sh.get("items") or []) | set(
                rng.sample(item_names, rng.randint(1, 3))))
            got = True
        if rng.random() < KNOWING:
            sh["powers"] = sorted(set(sh.get("powers") or []) | set(
                rng.sample([n for n, _ in POWERS], rng.randint(1, 2))))
            sh["EM"] = rng.choice([15, 20, 25, 30, 40])
            got = True
        if got:
            changed.append(sh)
            if sh.get("items"):
                holds[sh["name"]] = list(sh["items"])
            if sh.get("powers"):
                knows[sh["name"]] = list(sh["powers"])
    if changed:
        path = os.path.join(day.out, "roster-holdings.json")
        with open(path, "w") as f:
            json.dump(changed, f)
        day.must(hub, ["crs-stats", "import", "--replace", path])
    made["holds"], made["knows"] = holds, knows

    # Force Battles: the board's touches, and the duelists.
    touch = {t: [] for t in FB_TARGETS}
    faces = {}
    for line in day.must(hub, ["fb-duel", "board", "show"]).splitlines():
        w = line.split()
        if len(w) == 4 and w[0] == "sphere":
            for role in w[3].split(","):
                touch.setdefault(role, []).append(w[1])
        elif len(w) == 5 and w[0] == "target":
            faces[w[1]] = (int(w[3]), int(w[4]))
    made["fb_touch"], made["fb_faces"] = touch, faces
    made["duelists"] = []
    for i in range(1, DUELISTS + 1):
        side, hand, colour, level, words = DUEL_SHEETS[
            (i - 1) % len(DUEL_SHEETS)]
        name = "Duelist%02d" % i
        day.must(hub, ["fb-duel", "sheet", "add", name, "--side", side,
                       "--hand", hand, "--colour", colour, "--level",
                       level] + words)
        made["duelists"].append(name)

    # D6 characters: every attribute, a few skills, points to spend.
    made["d6"] = []
    for i in range(1, D6_CHARACTERS + 1):
        name = "Spacer%02d" % i
        argv = ["d6-roll", "char", "add", name]
        for a in D6_ATTRIBUTES:
            argv.append("%s=%dD%s" % (a, rng.randint(2, 4),
                                      rng.choice(["", "+1", "+2"])))
        for a, s in rng.sample(D6_SKILLS, rng.randint(2, 5)):
            argv.append("%s.%s=%dD%s" % (a, s, rng.randint(4, 6),
                                         rng.choice(["", "+1", "+2"])))
        argv += ["cp=%d" % rng.randint(3, 8), "fp=%d" % rng.randint(0, 2)]
        day.must(hub, argv)
        made["d6"].append(name)

    # Battle Grounds: the test suite's two teams, as a GM adds them.
    fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "..", "tests", "fixtures", "bg")
    made["teams"], made["bg_levels"], made["bg_powers"] = [], {}, {}
    for fn in BG_TEAMS:
        path = os.path.join(day.out, fn)
        shutil.copyfile(os.path.join(fixtures, fn), path)
        team = fn.split(".")[0].capitalize()
        day.must(hub, ["bg-board", "team", "add", team, "--file", path])
        made["teams"].append(team)
        for line in open(path):
            w = line.strip().split(":")
            if len(w) >= 3 and not line.startswith("#"):
                made["bg_levels"][w[0]] = w[1].rstrip("*")
                made["bg_powers"][w[0]] = w[3].split("+") if len(w) > 3 \
                    else []
    return made


# --- Avatar 2.6 --------------------------------------------------------


def release_lockouts(day, made):
    """Gives the day back the characters whose flee lockout has run out
    (play_avatar holds them apart meanwhile)."""
    now = day.now()
    with made["lock"]:
        done = [n for t, n in made["lockouts"] if t <= now]
        made["lockouts"] = [(t, n) for t, n in made["lockouts"] if t > now]
    if done:
        day.give_back(done)


def _up(s):
    return [c for c in s["combatants"] if not c["down"] and
            not c["dead"] and not c["fled"]]


def _lock_out(made, s, fighters):
    """Fighters who got away: out of fighters (the caller gives back
    the others) until their lockout ends."""
    for c in s["combatants"]:
        if c["fled"] and c.get("until") and c["name"] in fighters:
            fighters.remove(c["name"])
            with made["lock"]:
                made["lockouts"].append((c["until"], c["name"]))


def play_avatar(day, db, table, rng, fighters, made, think=None):
    """One Avatar 2.6 combat at table (crs-combat start --rules avatar):
    distances now and then, initiative, then each fighter as the tool
    says who is next: attacks (short or long as the distances allow,
    with the items the fighter holds, cards typed now and then), mental
    actions (Suggestion, Intimidation, Coercion too), powers while EM
    lasts, Item Swaps, Taking a Blow (carried on to the next round),
    Charges (and the free action they offer), flees, passes; the GM's
    rulings (adjust, --out-of-turn) and an undo now and then; Clean Up,
    until one side is down or a few rounds pass; the end, and now and
    then a free Flee after it.  A fighter who gets away is taken out of
    fighters, the list given, and held apart until his lockout ends
    (release_lockouts), so that no table starts a combat with him."""
    gm = _Gm(day, db, table, rng, think)
    release_lockouts(day, made)
    if day.over():
        return
    items, powers = made["items"], made["powers"]
    holds, knows = made["holds"], made["knows"]

    def status():
        return gm.json(["crs-combat", "--json", "status"], "av-status")

    def supplemental(name, rng_need):
        return [i for i in holds.get(name, []) if
                items[i]["use"] == "supplemental" and
                items[i]["range"] in ("both", rng_need)]

    cast = list(fighters)
    code, _, err = gm.run(["crs-combat", "start"] + cast +
                          ["--rules", "avatar"], "av-start")
    if code != 0:
        # One of them is locked out, or fighting elsewhere: without him.
        m = re.search(r"'([^']+)'", err)
        if not m or m.group(1) not in cast or len(cast) < 3:
            return
        cast.remove(m.group(1))
        gm.pause()
        if gm.run(["crs-combat", "start"] + cast + ["--rules", "avatar"],
                  "av-start")[0] != 0:
            return

    dist = {}                     # frozenset({a, b}) -> feet, as recorded
    last = {}                     # name -> (kind, target): his last action
    intimidated = set()
    carry = {}                    # protector -> protected, last round

    def feet(a, b):
        return dist.get(frozenset((a, b)))

    if rng.random() < 0.5 and not day.over():
        words = []
        pairs = [(a, b) for i, a in enumerate(cast) for b in cast[i + 1:]]
        for a, b in rng.sample(pairs, min(len(pairs), rng.randint(1, 4))):
            f = rng.choice([5, 5, 10, 15, 20, 30])
            words += [a, b, str(f)]
        gm.pause()
        if gm.run(["crs-combat", "range"] + words, "av-range")[0] == 0:
            for k in range(0, len(words), 3):
                dist[frozenset(words[k:k + 2])] = int(words[k + 2])
    if rng.random() < 0.08 and not day.over():
        a, b = rng.sample(cast, 2)
        gm.pause()
        if feet(a, b) is None or feet(a, b) > 5:
            argv = ["crs-combat", "attack", a, b, "--long", "--surprise"]
            what = "av-attack"
        else:
            argv = ["crs-combat", "mental", a, b, "--surprise"]
            what = "av-mental"
        if gm.run(argv, what)[0] == 0:
            last[a] = ("long" if what == "av-attack" else "mental", b)

    rounds = rng.randint(2, 6)
    s = None
    for rnd in range(rounds):
        if day.over():
            break
        gm.pause()
        s = status()
        if s is None:
            break
        up = _up(s)
        if len(up) < 2:
            break
        names = [c["name"] for c in up]
        # Step 1: a blow carried on; a Defensive Stance now and then.
        busy = set()
        for p, q in sorted(carry.items()):
            if p in names and q in names and rng.random() < 0.6:
                gm.pause()
                if gm.run(["crs-combat", "blow", p, q], "av-blow")[0] == 0:
                    busy.add(p)
        carry = {}
        if rng.random() < 0.06:
            who = [n for n in names if n not in busy]
            if who:
                st = rng.choice(who)
                gm.pause()
                if gm.run(["crs-combat", "stance", st], "av-stance")[0] == 0:
                    busy.add(st)
        gm.pause()
        argv = ["crs-combat", "init"]
        if rng.random() < 0.2:
            for n in rng.sample(names, min(2, len(names))):
                if n not in busy:
                    argv.append("%s=%d" % (n, rng.randint(2, 9)))
        if gm.run(argv, "av-init")[0] != 0:
            gm.run(["crs-combat", "init"], "av-init")
        s = status()
        acted = set()
        fails = 0
        while s is not None and s.get("next") and fails < 3:
            if day.over():
                break
            gm.pause()
            me = s["next"]
            up = _up(s)
            byname = {c["name"]: c for c in s["combatants"]}
            others = [c["name"] for c in up if c["name"] != me]
            if not others:
                break
            mine = byname[me]
            protected = {c["protecting"]: c["name"] for c in s["combatants"]
                         if c.get("protecting")}
            argv, what, single = _avatar_action(
                rng, me, mine, others, byname, protected, intimidated,
                feet, knows, powers, supplemental, last, acted, s)
            code, out, _ = gm.run(argv, what)
            if code == 0 and single and rng.random() < 0.04:
                # Taken back and done again, as a GM corrects a typo.
                gm.pause()
                if gm.run(["crs-combat", "undo"], "av-undo")[0] == 0:
                    gm.pause()
                    code, out, _ = gm.run(argv, what)
            if code != 0:
                fails += 1
                if what != "av-adjust":
                    gm.pause()
                    if gm.run(["crs-combat", "pass", me], "av-pass")[0] \
                            == 0:
                        acted.add(me)
                        intimidated.discard(me)
                        fails = 0
                s = status()
                continue
            fails = 0
            actor = argv[2]
            if what != "av-adjust":
                acted.add(actor)
                if what == "av-pass":
                    intimidated.discard(actor)
            for m in re.finditer(r"Intimidation on (.+?): .*succeeds: "
                                 r"the target passes", out):
                intimidated.add(m.group(1))
            _avatar_track(what, argv, actor, dist, last)
            if what == "av-charge":
                _avatar_free(gm, rng, actor, last, byname, supplemental,
                             feet)
            s = status()
            if s is not None and what == "av-flee":
                _lock_out(made, s, fighters)
        if s is None:
            break
        # Blows to carry on: not by one in a melee of his own.
        carry = {c["name"]: c["protecting"] for c in s["combatants"]
                 if c.get("protecting") and (not c["melee"] or
                                             c["protecting"] in c["melee"])}
        if len(_up(s)) < 2:
            break
        gm.pause()
        gm.run(["crs-combat", "round"], "av-round")

    gm.pause()
    s = status()
    standing = len(_up(s)) if s else 2
    if gm.run(["crs-combat", "end"] + (["--agreed"] if standing > 1
                                       else []), "av-end")[0] != 0:
        gm.run(["crs-combat", "end", "--agreed"], "av-end")
    s = status()
    if s is not None and s.get("ended") and rng.random() < 0.1:
        # The free Flee at the end: out of every combat for an hour.
        who = [c["name"] for c in _up(s)]
        if who:
            gm.pause()
            if gm.run(["crs-combat", "flee", rng.choice(who)],
                      "av-flee")[0] == 0:
                s = status()
                if s is not None:
                    _lock_out(made, s, fighters)


def _cards(rng, c, n=1):
    """n typed cards (2 to 9) not set aside by c this round, or None."""
    left = [x for x in range(2, 10) if str(x) not in
            [str(y) for y in (c.get("set_aside") or [])]]
    if len(left) < n:
        return None
    return ",".join(str(x) for x in rng.sample(left, n))


def _avatar_action(rng, me, mine, others, byname, protected, intimidated,
                   feet, knows, powers, supplemental, last, acted, s):
    """The next fighter's action, as the board allows it: (argv, what,
    whether one event that undo takes back whole)."""
    if me in intimidated:
        return ["crs-combat", "pass", me], "av-pass", True
    r = rng.random()
    if r < 0.05:
        # The GM's ruling on someone's LIFE or EM.
        live = [c for c in s["combatants"] if not c["fled"] and
                not c["dead"]]
        c = rng.choice(live)
        if c["LIFE"] > 1 and rng.random() < 0.6:
            ch = "LIFE=-%d" % rng.randint(1, min(3, c["LIFE"] - 1))
        elif c["LIFE"] < c["LIFE_max"]:
            ch = "LIFE=+%d" % rng.randint(1, min(3, c["LIFE_max"] -
                                                  c["LIFE"]))
        elif c.get("EM"):
            ch = "EM=-1"
        else:
            ch = "LIFE=-1"
        return (["crs-combat", "adjust", c["name"], ch, "--reason",
                 rng.choice(REASONS[:3])], "av-adjust", True)
    if r < 0.07:
        # Out of turn, by the GM's ruling: one who has not acted yet.
        cand = [c["name"] for c in s["combatants"] if c["name"] != me and
                c["name"] in others and
                c.get("initiative") is not None and not c["stance"] and
                c["name"] not in acted and c["name"] not in intimidated]
        if cand:
            who = rng.choice(cand)
            foes = [o for o in others if o != who] + [me]
            return (["crs-combat", "pass", who, "--out-of-turn", "--reason",
                     REASONS[3]], "av-pass", True) if rng.random() < 0.5 \
                else (_attack(rng, who, rng.choice(foes), byname, protected,
                              feet, supplemental) +
                      ["--out-of-turn", "--reason", REASONS[3]],
                      "av-attack", True)
    if r < 0.20:
        mp = [p for p in knows.get(me, [])
              if mine.get("EM") is not None and mine["EM"] >= powers[p]["em"]]
        if mp:
            p = rng.choice(mp)
            if powers[p]["target"] == "group":
                tg = rng.sample(others, rng.randint(1, min(3, len(others))))
            else:
                tg = [rng.choice(others)]
            argv = ["crs-combat", "power", me, p] + tg
            spare = mine["EM"] - powers[p]["em"]
            if spare > 0 and rng.random() < 0.3:
                argv += ["--em", str(powers[p]["em"] +
                                     rng.randint(1, min(5, spare)))]
            return argv, "av-power", len(tg) == 1
    if r < 0.32:
        k = rng.random()
        if k < 0.1 and len(others) >= 2:
            tg = rng.sample(others, 2)
            return (["crs-combat", "mental", me] + tg + ["--kind",
                                                         "intimidation"],
                    "av-mental", False)
        argv = ["crs-combat", "mental", me, rng.choice(others)]
        if k < 0.2:
            argv += ["--kind", "intimidation"]
        elif k < 0.3:
            argv += ["--kind", "suggestion"]
        elif k < 0.33:
            argv += ["--kind", "coercion"]
        if rng.random() < 0.2:
            c = _cards(rng, mine)
            if c:
                argv += ["--card", c]
        return argv, "av-mental", True
    if r < 0.38:
        # Taking a Blow for someone within short range, outside a melee
        # of his own.
        cand = [o for o in others if (feet(me, o) is None or
                                      feet(me, o) <= 5) and
                o not in protected and not byname[o].get("protecting") and
                (not mine["melee"] or o in mine["melee"])]
        if cand:
            return (["crs-combat", "blow", me, rng.choice(cand)], "av-blow",
                    True)
    if r < 0.44 and not mine["melee"]:
        # A Charge at a foe; whoever shot at him last may shoot again.
        foe = rng.choice(others)
        argv = ["crs-combat", "charge", me, "%s=%d" % (foe, rng.choice(
            [5, 5, 10]))]
        for o in others:
            if o != foe and last.get(o) == ("long", me):
                argv.append("%s=%d" % (o, rng.choice([10, 15, 20])))
        for o in others:
            if feet(me, o) is not None and feet(me, o) <= 5:
                argv += ["--let", o]
        return argv, "av-charge", True
    if r < 0.48:
        sup = supplemental(me, "both") + supplemental(me, "short") + \
            supplemental(me, "long")
        if sup:
            return (["crs-combat", "swap", me, rng.choice(sorted(set(sup)))],
                    "av-swap", True)
    if r < 0.51:
        argv = ["crs-combat", "flee", me]
        if rng.random() < 0.3:
            argv += ["--let", rng.choice(others)]
        return argv, "av-flee", True
    if r < 0.62:
        return ["crs-combat", "pass", me], "av-pass", True
    return (_attack(rng, me, rng.choice(others), byname, protected, feet,
                    supplemental), "av-attack", True)


def _attack(rng, me, foe, byname, protected, feet, supplemental):
    """An attack at foe, short or long as the distance allows, with an
    item he holds now and then, the cards typed now and then."""
    d = feet(me, foe)
    if d is not None:
        long_ = d > 5
    else:
        long_ = rng.random() < 0.35
    argv = ["crs-combat", "attack", me, foe] + (["--long"] if long_ else [])
    sup = supplemental(me, "long" if long_ else "short")
    if sup and rng.random() < 0.6:
        argv += ["--item", rng.choice(sup)]
    plain = not long_ and foe not in protected
    if plain and rng.random() < 0.25:
        vs = supplemental(foe, "short")
        if vs:
            argv += ["--vs-item", rng.choice(vs)]
    if rng.random() < 0.25:
        c = _cards(rng, byname[me])
        if c:
            argv += ["--card", c]
            v = _cards(rng, byname[foe]) if plain else None
            if v:
                argv += ["--vs-card", v]
    return argv


def _avatar_track(what, argv, actor, dist, last):
    """What an action that went through changes in the GM's notes."""
    if what == "av-attack":
        last[actor] = ("long" if "--long" in argv else "short", argv[3])
    elif what == "av-mental":
        last[actor] = ("mental", argv[3])
    elif what == "av-power":
        last[actor] = ("power", argv[4])
    elif what in ("av-pass", "av-blow", "av-swap", "av-flee"):
        last[actor] = (what[3:], None)
    elif what == "av-charge":
        last[actor] = ("charge", None)
        for k in [k for k in dist if actor in k]:
            del dist[k]
        for x in argv[3:]:
            if "=" in x and not x.startswith("-"):
                o, f = x.split("=")
                dist[frozenset((actor, o))] = int(f)


def _avatar_free(gm, rng, charger, last, byname, supplemental, feet):
    """The free action a Charge offers whoever last shot at the charger:
    a long range attack or, under Avatar 2.6, an Item Swap."""
    shooters = [n for n, (k, t) in sorted(last.items()) if k == "long" and
                t == charger and n in byname and not byname[n]["down"] and
                not byname[n]["fled"] and not byname[n]["dead"] and
                not byname[n]["stance"]]
    if not shooters or rng.random() < 0.4:
        return
    n = rng.choice(shooters)
    sup = supplemental(n, "long")
    far = feet(n, charger) is None or feet(n, charger) > 5
    if not far and not sup:
        return
    gm.pause()
    if sup and (not far or rng.random() < 0.4):
        gm.run(["crs-combat", "swap", n, rng.choice(sup), "--free"],
               "av-free")
    else:
        argv = ["crs-combat", "attack", n, charger, "--long", "--free"]
        if sup and rng.random() < 0.5:
            argv += ["--item", rng.choice(sup)]
        gm.run(argv, "av-free")


# --- Force Battles -----------------------------------------------------


def play_duel(day, db, table, rng, made, think=None):
    """One Force Battles duel at table (fb-duel) between two duelists
    no other table has: a round at a time, as one command now and then,
    else stage by stage as players who see the dice (init, target, with
    the attacker's choice when she has one and a paid move now and then,
    then the round with both sides' pulls and their GEAS: Protect, Rage,
    Jump after the Hit roll; Lightning before initiative); a new stance
    after a double botch or a kick; a pass; the GM's ruling and an undo
    now and then; to the duel's end or a few rounds (fb-duel has no end
    but the duel's own)."""
    if day.over():
        return
    gm = _Gm(day, db, table, rng, think)
    pair = _claim(made, "duelists", rng, 2)
    if not pair:
        gm.pause()
        return
    try:
        _duel(gm, rng, made, pair)
    finally:
        _unclaim(made, pair)


def _duel(gm, rng, made, pair):
    day = gm.day
    code, out, _ = gm.run(["fb-duel", "start"] + pair, "duel-start",
                          seed=False)
    m = re.match(r"duel (\d+):", out)
    if code != 0 or not m:
        return
    fb = ["fb-duel", "--duel", m.group(1)]
    touch, faces = made["fb_touch"], made["fb_faces"]

    def status():
        return gm.json(fb + ["--json", "status"], "duel-status")

    def after(argv, what):
        """argv; a GM's undo and the same again now and then."""
        code = gm.run(argv, what)[0]
        if code == 0 and rng.random() < 0.04:
            gm.pause()
            if gm.run(fb + ["undo"], "duel-undo", seed=False)[0] == 0:
                gm.pause()
                code = gm.run(argv, what)[0]
        return code

    for rnd in range(rng.randint(3, 8)):
        if day.over():
            break
        gm.pause()
        s = status()
        if s is None or s["over"]:
            break
        changed = False
        if rng.random() < 0.03:
            d = {x["name"]: x for x in s["duelists"]}[rng.choice(pair)]
            ch = "ATT=-1 POOL=+1" if d["att"] > 0 and d["pool"] < 100 \
                else "DEF=+1"
            gm.pause()
            changed = gm.run(fb + ["adjust", d["name"]] + ch.split() +
                             ["--reason", rng.choice(REASONS[4:])],
                             "duel-adjust")[0] == 0
        for name in pair:
            # Before initiative: a new stance after a double botch or a
            # kick, or Lightning; each on the board as it is now.
            if changed:
                s = status()
                changed = False
                if s is None or s["over"]:
                    break
            d = {x["name"]: x for x in s["duelists"]}[name]
            if d["may_restance"] and rng.random() < 0.5:
                gm.pause()
                changed = gm.run(fb + ["restance", name] +
                                 _restance(rng, d), "duel-restance")[0] == 0
            elif d["geas"].get("lightning", 0) > 0 and rng.random() < 0.2:
                gm.pause()
                changed = gm.run(fb + ["geas", name, "lightning", "1"],
                                 "duel-geas")[0] == 0
        if changed:
            s = status()
        if s is None or s["over"]:
            break
        gm.pause()
        if rng.random() < 0.4:
            # The whole round in one command, the tool rolling.
            argv = fb + ["round"]
            if s["chooses_target"] and rng.random() < 0.7:
                argv += ["--choose", rng.choice(FB_TARGETS)]
            if after(argv, "duel-round") != 0:
                gm.run(fb + ["round"], "duel-round")
            continue
        if s["stage"] == "before initiative":
            if gm.run(fb + ["init"], "duel-init")[0] != 0:
                continue
            gm.pause()
            s = status()
            if s is None:
                break
        if s["over"] or not s.get("attacker"):
            continue
        if rng.random() < 0.05:
            after(fb + ["round", "--pass"], "duel-pass")
            continue
        a = s["attacker"]
        ds = {d["name"]: d for d in s["duelists"]}
        if s["stage"] == "initiative rolled":
            argv = fb + ["target"]
            if s["chooses_target"]:
                argv += ["--choose", rng.choice(FB_TARGETS)]
            elif rng.random() < 0.15:
                # The die read at the table, and a paid move from it.
                die = rng.randint(1, 6)
                light_right = (ds[a]["side"], ds[a]["hand"]) in (
                    ("light", "right"), ("dark", "left"))
                t = [n for n, (f, g) in faces.items()
                     if (f if light_right else g) == die]
                argv += ["--target-die", str(die)]
                if t:
                    near = [n for n in FB_TARGETS if n != t[0] and
                            set(touch[n]) & set(touch[t[0]]) and any(
                                ds[a]["spheres"].get(x, 0) > 1 for x in
                                set(touch[n]) & set(touch[t[0]]))]
                    if near:
                        argv += ["--move", rng.choice(near)]
            gm.pause()
            if gm.run(argv, "duel-target")[0] != 0:
                continue
            gm.pause()
            s = status()
            if s is None:
                break
        if s["over"] or not s.get("target"):
            continue
        argv = fb + ["round"] + _pulls(rng, s, touch)
        gm.pause()
        code, out, _ = gm.run(argv, "duel-round")
        if code != 0:
            gm.run(fb + ["round"], "duel-round")
        elif re.search(r": hit, damage", out) and rng.random() < 0.3:
            # An unblocked hit: the attacker kicks instead.  Taken back,
            # and the same dice again (the same seed) with the kick.
            again = gm.seed
            gm.pause()
            if gm.run(fb + ["undo"], "duel-undo", seed=False)[0] == 0:
                gm.pause()
                if gm.run(argv + ["--kick"], "duel-kick", seed=again)[0] \
                        != 0:
                    gm.run(argv, "duel-round", seed=again)
        elif rng.random() < 0.04:
            gm.pause()
            if gm.run(fb + ["undo"], "duel-undo", seed=False)[0] == 0:
                gm.pause()
                gm.run(argv, "duel-round")


def _pulls(rng, s, touch):
    """Both sides' pulls and GEAS for the round at target: the defender
    into the target, the attacker into her hand's arm; Protect and Jump
    for a Light defender, Rage for a Dark attacker, now and then."""
    a = s["attacker"]
    ds = {d["name"]: d for d in s["duelists"]}
    d = [n for n in ds if n != a][0]
    words = []
    for who, role, k in ((d, s["target"], rng.randint(0, 3)),
                         (a, ds[a]["hand"] + "-arm", rng.randint(0, 2))):
        sp = ds[who]["spheres"]
        src = [x for x in touch.get(role, []) if sp.get(x, 0) >= 2]
        take = {}
        for _ in range(k):
            if not src:
                break
            x = rng.choice(src)
            take[x] = take.get(x, 0) + 1
            if sp[x] - take[x] < 2:
                src.remove(x)
        if take:
            words += ["--pull", "%s:%s" % (who, ",".join(
                "%s=%d" % kv for kv in sorted(take.items())))]
    if ds[d]["geas"].get("protect", 0) > 0 and rng.random() < 0.3:
        words += ["--geas", d + ":protect"]
    elif ds[d]["geas"].get("jump", 0) > 0 and rng.random() < 0.2:
        words += ["--after-hit", d + ":jump"]
    if ds[a]["geas"].get("rage", 0) > 0 and rng.random() < 0.3:
        words += ["--geas", a + ":rage"]
    return words


def _restance(rng, d):
    """A new stance with the same counters: one moved from a full sphere
    to an emptier one, every slot written out."""
    sp = dict(d["spheres"])
    full = [x for x in sp if sp[x] >= 2]
    room = [x for x in sp if sp[x] < 4]
    if full and room:
        x = rng.choice(full)
        y = rng.choice([r for r in room if r != x] or [x])
        sp[x] -= 1
        sp[y] += 1
    words = ["%s=%d" % kv for kv in sorted(sp.items())]
    words += ["att=%d" % d["att"], "def=%d" % d["def"]]
    words += ["%s=%d" % kv for kv in sorted(d["geas"].items()) if kv[1]]
    return words


# --- Battle Grounds ----------------------------------------------------


def _near(a, b):
    """Two squares a king's step apart."""
    return a != b and abs(ord(a[0]) - ord(b[0])) <= 1 and \
        abs(int(a[1:]) - int(b[1:])) <= 1


def play_game(day, db, table, rng, made, think=None):
    """One Battle Grounds game at table (bg-board) between the two
    teams: now and then a figure set elsewhere before the first move;
    then each side's turn as the board says whose it is: the moves of a
    figure listed (moves), one of them played, an attack as often as
    not where there is one (the tool rolling the dice); a Teleport now
    and then; a pass; the Battle Die the loser of a battle moves to her
    Dice Zone, or, forgotten, let by the GM's ruling (adjust) on the next
    turn; an undo now and then; a few turns, or to the Cosmic figure's
    fall.  bg-board has no end but the game's own."""
    if day.over():
        return
    gm = _Gm(day, db, table, rng, think)
    teams = list(made["teams"])
    rng.shuffle(teams)
    code, out, _ = gm.run(["bg-board", "new"] + teams, "bg-new", seed=False)
    m = re.match(r"game (\d+):", out)
    if code != 0 or not m:
        return
    bg = ["bg-board", "--game", m.group(1)]
    levels, fpowers = made["bg_levels"], made["bg_powers"]

    def show():
        return gm.json(bg + ["show", "--json"], "bg-show")

    s = show()
    if s is None:
        return
    if rng.random() < 0.15:
        # Before the first move: a figure to another setup square of
        # its level.
        own = [p for p in s["pieces"] if p["team"] == s["to_move"] and
               p["square"]]
        f = rng.choice(own)
        same = [p["square"] for p in own if p["name"] != f["name"] and
                levels.get(p["name"]) == levels.get(f["name"])]
        if same:
            gm.pause()
            gm.run(bg + ["place", f["name"], rng.choice(same)], "bg-place",
                   seed=False)
    owed = None                   # a die forgotten after a lost battle
    for turn in range(rng.randint(6, 16)):
        if day.over():
            break
        gm.pause()
        s = show()
        if s is None or s["over"]:
            break
        if owed and rng.random() < 0.7:
            gm.run(bg + ["adjust", owed, "DICE=+1", "--reason",
                         "forgot her die after the battle"], "bg-adjust",
                   seed=False)
            gm.pause()
            _die(gm, bg, rng, owed, s)
        owed = None
        side = s["to_move"]
        mine = [p for p in s["pieces"] if p["controller"] == side and
                p["square"]]
        argv = None
        r = rng.random()
        if r < 0.05:
            argv, what = bg + ["pass"], "bg-pass"
        elif r < 0.1:
            at = {p["square"]: p for p in mine}
            for p in mine:
                if "teleport" in fpowers.get(p["name"], []):
                    nb = [q for q in at if _near(q, p["square"])]
                    if nb:
                        argv = bg + ["power", p["name"], "teleport",
                                     rng.choice(nb)]
                        what = "bg-power"
                        break
        if argv is None:
            for p in rng.sample(mine, min(4, len(mine))):
                mv = gm.json(bg + ["moves", p["name"], "--json"],
                             "bg-moves")
                if not mv or not mv["moves"]:
                    continue
                att = [x for x in mv["moves"] if x["attack"]]
                x = rng.choice(att if att and rng.random() < 0.5 else
                               mv["moves"])
                argv, what = bg + ["move", p["name"], x["square"]], \
                    "bg-move"
                break
            else:
                argv, what = bg + ["pass"], "bg-pass"
            gm.pause()
        seeded = what == "bg-move"
        code, out, _ = gm.run(argv, what, seed=seeded)
        if code == 0 and rng.random() < 0.04:
            gm.pause()
            if gm.run(bg + ["undo"], "bg-undo", seed=False)[0] == 0:
                gm.pause()
                code, out, _ = gm.run(argv, what, seed=seeded)
        if code != 0:
            gm.pause()
            gm.run(bg + ["pass"], "bg-pass", seed=False)
            continue
        m = re.search(r"(\S+) may move a die", out)
        if m:
            if rng.random() < 0.1:
                owed = m.group(1)
            else:
                gm.pause()
                s = show()
                if s is not None:
                    _die(gm, bg, rng, m.group(1), s)


def _die(gm, bg, rng, team, s):
    """The team moves a Battle Die from Staging to its Dice Zone."""
    zone = s["dice_zone"][s["teams"].index(team)]
    staged = [n for n in range(1, 7) if n not in zone]
    if not staged:
        return
    argv = bg + ["die", team, str(rng.choice(staged))]
    if len(zone) >= 5:
        argv += ["--swap", str(rng.choice(zone))]
    gm.run(argv, "bg-die", seed=False)


# --- D6 ----------------------------------------------------------------


def play_d6(day, db, table, rng, made, think=None):
    """A D6 scene at table (d6-roll): one to three characters no other
    table has, their sheets read (char show), then a few rolls of their
    skills and attributes (a skill missing falls back on its attribute):
    against a difficulty or an opposed roll, or none; several actions
    now and then; Character Points and Force Points while they last
    (never both in one round, one Force Point a round); a damage roll
    after a success now and then."""
    if day.over():
        return
    gm = _Gm(day, db, table, rng, think)
    cast = _claim(made, "d6", rng, rng.randint(1, 3))
    if not cast:
        gm.pause()
        return
    try:
        _d6(gm, rng, cast)
    finally:
        _unclaim(made, cast)


def _d6(gm, rng, cast):
    day = gm.day
    sheets = {}
    for n in cast:
        if day.over():
            return
        gm.pause()
        sh = gm.json(["d6-roll", "--json", "char", "show", n], "d6-show")
        if sh is not None:
            sheets[n] = sh
    if not sheets:
        return
    spent = {}                    # (name, round) -> "cp" or "fp"
    label = "%s-%d" % (gm.table, day.now())
    for k in range(rng.randint(2, 6)):
        if day.over():
            break
        gm.pause()
        n = rng.choice(sorted(sheets))
        sh = sheets[n]
        rnd = "%s-r%d" % (label, k // 2 + 1)
        skills = [t for t in sh["traits"] if t["attribute"]]
        attrs = [t for t in sh["traits"] if not t["attribute"]]
        r = rng.random()
        if r < 0.6 and skills:
            trait = rng.choice(skills)["name"]
        elif r < 0.7 and attrs:
            a, s = rng.choice(D6_SKILLS)
            trait = "%s.%s" % (a, s)
        else:
            trait = rng.choice(attrs)["name"]
        argv = ["d6-roll", "--json"] + (["char", "roll"] if rng.random() <
                                        0.2 else []) + [n, trait]
        r = rng.random()
        if r < 0.55:
            argv += ["--vs", rng.choice(D6_DIFFICULTIES)]
        elif r < 0.7:
            argv += ["--opposed", "%dD%s" % (rng.randint(2, 5),
                                             rng.choice(["", "+1", "+2"]))]
        if rng.random() < 0.1:
            argv += ["--actions", "2"]
        how = spent.get((n, rnd))
        r = rng.random()
        if r < 0.12 and sh["cp"] > 0 and how != "fp":
            argv += ["--cp", str(min(sh["cp"], rng.randint(1, 2)))]
            how = "cp"
        elif r < 0.15 and sh["fp"] > 0 and how is None:
            argv += ["--fp"]
            how = "fp"
        if how:
            argv += ["--round", rnd]
        code, out, _ = gm.run(argv, "d6-roll")
        if code != 0:
            continue
        try:
            roll = json.loads(out)["roll"]
        except (ValueError, KeyError):
            continue
        if how:
            spent[(n, rnd)] = how
        sh["cp"], sh["fp"] = roll["cp_left"], roll["fp_left"]
        if roll.get("success") and rng.random() < 0.3:
            gm.pause()
            gm.run(["d6-roll", "damage", "%dD" % rng.randint(3, 6),
                    "--resist", "%dD%s" % (rng.randint(2, 4),
                                           rng.choice(["", "+1", "+2"]))],
                   "d6-damage")
