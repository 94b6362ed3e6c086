#!/usr/bin/env python3
"""Online play driven as people would, through real windows under virtual displays with xdotool:
a server (`hexfront serve`) and three client processes, each with its own display and data
folder. Anna makes a Mortain game for a friend (German), Bert joins it by the code (United
States), Wim watches it by its id. Anna moves two stacks and attacks Hill 317; Bert moves a
regiment and attacks back from Mortain; a defender asked about a result answers in its own
window. After every order the other windows must have carried out the same order within 2 s
(the same line of the game's log, timestamps compared: one host, one clock). Screenshots of the
boards go to OUT and must not be blank; no log may hold an ERROR line.

    python3 .ci/online_smoke.py BINARY OUT_DIR

The attacks are made at long odds with the attacker taking steps instead of retreating, so the
attacker's units stay where the next orders expect them whatever the server's dice; a defender
asked answers as the result says, so a retreat (carried out by the rules, as on the server) is
covered, and the windows must agree afterwards.
"""

import datetime
import os
import re
import subprocess
import sys
import time

binary, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
os.makedirs(out, exist_ok=True)
check_png = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_png.py")
began = time.time()
children = []
logs = {}
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# `2026-11-28T17:07:21.814127Z  INFO hexfront::game::components: Reinforcement phase ends. …`
LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+)Z\s+(\w+)\s+(\S+): (.*)$")
GAME = "hexfront::game::components"
DELAY = 2.0


def text(path):
    try:
        return ANSI.sub("", open(path, encoding="utf-8", errors="replace").read())
    except FileNotFoundError:
        return ""


def fail(message):
    print("error: " + message, file=sys.stderr)
    for name, path in logs.items():
        print("\n--- %s (%s), its end:" % (name, path), file=sys.stderr)
        print(text(path)[-3000:], file=sys.stderr)
    for c in (clients.values() if "clients" in globals() else []):
        try:
            c.shot("failed-%s.png" % c.name.lower())
        except Exception:
            pass
    for p in reversed(children):
        p.kill()
    sys.exit(1)


def start(name, args, env, log_name):
    path = os.path.join(out, log_name)
    logs[name] = path
    p = subprocess.Popen(args, env=env, stdout=open(path, "w"), stderr=subprocess.STDOUT)
    children.append(p)
    return p


def display_taken(number):
    """Whether an X server holds display `number`: its lock file names a live process. A lock
    left by a server that was killed (and its socket) is cleared."""
    lock, socket = "/tmp/.X%d-lock" % number, "/tmp/.X11-unix/X%d" % number
    if not os.path.exists(lock):
        return os.path.exists(socket)
    try:
        pid = int(open(lock).read().strip())
        os.kill(pid, 0)
        return True
    except (ValueError, OSError):
        for stale in (lock, socket):
            try:
                os.remove(stale)
            except OSError:
                pass
        return False


def free_displays(n):
    """`n` display numbers in 160-199 no live X server holds, from a start that differs between
    runs."""
    first = 160 + (os.getpid() % 13) * 3
    for i in range(40):
        base = 160 + (first - 160 + i) % (40 - n)
        if not any(display_taken(base + k) for k in range(n)):
            return [base + k for k in range(n)]
    fail("no free display numbers in 160-199")


# The server, on a free port.
server_env = dict(os.environ, HEXFRONT_DATA_DIR=os.path.join(out, "server-data"))
server = start("server", [binary, "serve", "--listen", "127.0.0.1:0"], server_env, "server.log")
deadline = time.time() + 60
address = None
while time.time() < deadline and not address:
    if server.poll() is not None:
        fail("the server exited")
    found = re.search(r"ws://([0-9.]+:\d+)/ws", text(logs["server"]))
    address = found and found.group(1)
    time.sleep(0.2)
if not address:
    fail("the server printed no ws:// address")
print("server at ws://%s/ws" % address)


def cell_at(label):
    """Screen point of a cell's centre on the fitted Mortain board (24x18 flat-topped hexes) in a
    1600x1000 window: columns 40.27 px apart from x 166.7, rows 46.5 px apart from y 81.5, even
    columns half a row lower."""
    c, r = int(label[:2]), int(label[2:])
    return round(166.7 + (c - 1) * 40.27), round(81.5 + (r - 1) * 46.5 + (23.25 if c % 2 == 0 else 0))


def stamp(ts):
    return datetime.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f").timestamp()


class Client:
    def __init__(self, name, display):
        self.name = name
        self.display = ":%d" % display
        self.env = dict(os.environ, DISPLAY=self.display, HEXFRONT_DATA_DIR=os.path.join(out, name.lower() + "-data"))
        self.xvfb = subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1600x1000x24"], stderr=subprocess.DEVNULL)
        children.append(self.xvfb)
        self.proc = None
        self.window = None

    def launch(self):
        deadline = time.time() + 20
        while not os.path.exists("/tmp/.X11-unix/X" + self.display[1:]):
            if self.xvfb.poll() is not None or time.time() > deadline:
                fail("Xvfb %s did not start" % self.display)
            time.sleep(0.2)
        time.sleep(0.5)
        if self.xvfb.poll() is not None:
            fail("Xvfb %s exited" % self.display)
        args = [binary, "--online", address, "--name", self.name]
        self.proc = start(self.name, args, self.env, self.name.lower() + ".log")

    def alive(self):
        if self.proc.poll() is not None:
            fail("%s's window exited" % self.name)

    def xdo(self, *args):
        subprocess.run(["xdotool", *map(str, args)], env=self.env, check=True)

    def shot(self, name):
        path = os.path.join(out, name)
        subprocess.run(["import", "-window", "root", "PNG24:" + path], env=self.env, check=True)
        return path

    def pixels(self, png, x, y, w, h):
        """The pixels of a rectangle of a screenshot, as {(x, y): (r, g, b)} (ImageMagick's text
        format)."""
        dump = subprocess.run(
            ["convert", png, "-crop", "%dx%d+%d+%d" % (w, h, x, y), "+repage", "txt:-"],
            capture_output=True, text=True, check=True,
        ).stdout
        px = {}
        for m in re.finditer(r"^(\d+),(\d+): \((\d+),(\d+),(\d+)", dump, re.M):
            px[(x + int(m.group(1)), y + int(m.group(2)))] = tuple(int(m.group(k)) for k in (3, 4, 5))
        return px

    def wait_ready(self, seconds=300):
        """Until the window is drawn and connected: the Online tab's dot beside Connect is green."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            self.alive()
            found = subprocess.run(["xdotool", "search", "--name", "Hexfront"], env=self.env, capture_output=True, text=True).stdout.split()
            if found:
                png = self.shot("%s-probe.png" % self.name.lower())
                r, g, b = self.pixels(png, 528, 50, 1, 1).get((528, 50), (0, 0, 0))
                if g > 140 and r < 120 and b < 120:
                    os.remove(png)
                    self.window = found[0]
                    self.focus()
                    return
            time.sleep(2)
        fail("%s's window was not on the Online tab, connected, within %d s" % (self.name, seconds))

    def focus(self):
        # Keys go to the focused window: a bare X server gives none the focus.
        self.xdo("windowfocus", self.window)
        time.sleep(0.3)

    def key(self, *names):
        for n in names:
            self.xdo("key", n)
            time.sleep(0.5)

    def click(self, x, y):
        # Hover first: egui takes a click on what the pointer was over in the frame before.
        self.xdo("mousemove", x, y)
        time.sleep(0.8)
        self.xdo("click", 1)
        time.sleep(0.8)

    def cell(self, label):
        self.click(*cell_at(label))

    def type(self, words):
        self.xdo("type", "--delay", 60, words)
        time.sleep(0.4)

    def bar(self, x, top, bottom, grey, what):
        """The middle of the first widget of fill `grey` down the column x from `top`: egui's
        text fields are #0a0a0a, its buttons #3c3c3c (the layout may grow rows above them)."""
        png = self.shot("%s-probe.png" % self.name.lower())
        px = self.pixels(png, x, top, 1, bottom - top)
        os.remove(png)
        run = []
        for y in range(top, bottom):
            if all(abs(v - grey) <= 3 for v in px.get((x, y), (0, 0, 0))):
                run.append(y)
            elif len(run) >= 8:
                break
            else:
                run = []
        if len(run) < 8:
            self.shot("%s-no-%s.png" % (self.name.lower(), what.lower().replace(" ", "-")))
            fail("no %s on %s's screen" % (what, self.name))
        return x, (run[0] + run[-1]) // 2

    def lines(self):
        """The game log's lines so far: (seconds, words), in order."""
        got = []
        for line in text(logs[self.name]).splitlines():
            m = LINE.match(line)
            if m and m.group(3) == GAME:
                got.append((stamp(m.group(1)), m.group(4)))
        return got

    def wait_line(self, pattern, since=0, seconds=20):
        """The first game-log line from index `since` on matching `pattern`: (index, seconds, words)."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            self.alive()
            check_agreement()
            for i, (t, words) in enumerate(self.lines()[since:], since):
                if re.search(pattern, words):
                    return i, t, words
            time.sleep(0.25)
        return None


def check_agreement():
    """A window whose copy of the game stopped agreeing with the server's says so (a WARN of
    the online game, and a red line on the board): no use waiting."""
    for name, path in logs.items():
        for line in text(path).splitlines():
            m = LINE.match(line)
            if m and m.group(2) == "WARN" and m.group(3).startswith("hexfront::gui::online") and "online game:" in m.group(4):
                fail("%s's copy of the game broke: %s" % (name, m.group(4)))


displays = free_displays(3)
anna, bert, wim = Client("Anna", displays[0]), Client("Bert", displays[1]), Client("Wim", displays[2])
clients = {c.name: c for c in (anna, bert, wim)}
for c in clients.values():
    c.launch()
for c in clients.values():
    c.wait_ready()
print("three windows on the Online tab, connected, %.0f s after the start" % (time.time() - began))
shots = [anna.shot("1-anna-online-tab.png")]

# Anna: Create game (defaults: Mortain, German, a friend with the code), the wide button of the
# right column.
anna.click(*anna.bar(1400, 150, 600, 60, "Create game button"))
code = None
deadline = time.time() + 30
while time.time() < deadline and not code:
    found = re.search(r"the code for your friend is (g-[0-9a-f]+)\.([0-9a-f]+)", text(logs["Anna"]))
    code = found and found.groups()
    time.sleep(0.3)
if not code:
    anna.shot("anna-no-game.png")
    fail("Create game made no game (no code in Anna's log)")
game_id, invite = code
if not anna.wait_line(r"^Mortain: Operation", seconds=30):
    fail("Anna's board did not open")
print("Anna made %s" % game_id)

# Bert: the code into Join by code, Enter.
bert.click(*bert.bar(196, 100, 400, 10, "Join by code field"))
bert.type("%s.%s" % (game_id, invite))
bert.key("Return")
if not bert.wait_line(r"^Mortain: Operation", seconds=30):
    bert.shot("bert-not-joined.png")
    fail("Bert's board did not open after joining by the code")

# Wim: the game's id into Watch a game by its id, the Watch button beside it.
time.sleep(1)
below = wim.bar(1400, 150, 600, 60, "Create game button")[1] + 15
x, y = wim.bar(960, below, 800, 10, "Watch a game by its id field")
wim.click(x + 50, y)
wim.type(game_id)
wim.click(x + 150, y)
if not wim.wait_line(r"^Mortain: Operation", seconds=30):
    wim.shot("wim-not-watching.png")
    fail("Wim's board did not open after Watch")
# Each board's picture is baked in its first seconds, keeping a core busy: the orders wait.
for c in clients.values():
    deadline = time.time() + 60
    while time.time() < deadline and "board picture baked" not in text(logs[c.name]):
        time.sleep(0.5)
time.sleep(1)
for c in clients.values():
    c.xdo("mousemove", 1300, 900)
print("Bert joined, Wim watches, %.0f s after the start" % (time.time() - began))

checked = []  # (order, window, delay)
orders = []


def order(actor, words, act, pattern, seconds=20, tries=1):
    """Carries out `act` at the actor's window; the actor's log must then show a line matching
    `pattern`, and every other window the same new lines within 2 s of the actor's. Clicks on
    the board may be tried again (`tries`): a window busy drawing may take a pointer's move and
    click in one frame, the click then landing where the pointer was before."""
    since = {c.name: len(c.lines()) for c in clients.values()}
    for attempt in range(tries):
        if attempt:
            print("  (%s: tried again)" % words)
            actor.key("Escape")
        act()
        hit = actor.wait_line(pattern, since[actor.name], seconds if attempt == tries - 1 else 8)
        if hit:
            break
    if not hit:
        actor.shot("%s-stuck.png" % actor.name.lower())
        fail("%s: %s's window shows no line matching %r after %d s" % (words, actor.name, pattern, seconds))
    time.sleep(0.5)
    first = len(checked)
    same(actor, since, words)
    orders.append(words)
    seen = {}
    for _, other, delay in checked[first:]:
        seen[other] = max(seen.get(other, delay), delay)
    print("ok: %s (%s)" % (words, ", ".join("%s %+.2f s" % kv for kv in seen.items())))
    return hit


def same(actor, since, words):
    mine = actor.lines()[since[actor.name]:]
    everything = actor.lines()
    for other in clients.values():
        if other is actor:
            continue
        for i, (t, line) in enumerate(mine, since[actor.name]):
            nth = sum(1 for _, w in everything[:i] if w == line)
            deadline = time.time() + 10
            while True:
                theirs = [s for s, w in other.lines() if w == line]
                if len(theirs) > nth:
                    break
                if time.time() > deadline:
                    other.shot("%s-behind.png" % other.name.lower())
                    fail("%s: %s's window never showed %r" % (words, other.name, line))
                check_agreement()
                time.sleep(0.25)
            delay = theirs[nth] - t
            if abs(delay) > DELAY:
                fail("%s: %s's window showed %r %.2f s after %s's (more than %.0f s)" % (words, other.name, line, delay, actor.name, DELAY))
            checked.append((words, other.name, delay))


def end_phase(actor, pattern):
    order(actor, "%s ends the phase" % actor.name, lambda: actor.key("Return"), pattern)


def end_turn(actor, pattern):
    """Enter ends the last phase; the question whether to end the turn is answered Y."""
    def act():
        actor.key("Return")
        time.sleep(1)
        actor.key("y")
    order(actor, "%s ends the turn" % actor.name, act, pattern)


def move(actor, start, to):
    def act():
        actor.cell(start)
        actor.cell(to)
    order(actor, "%s moves %s to %s" % (actor.name, start, to), act, r" moved %s → .*%s, spending" % (start, to), tries=3)


def take_steps_radio(actor):
    """The attack panel's `take steps` radio (attacker, on a retreat result): the first radio
    shown unselected (a filled #3c3c3c disc, 13 px across) on the panel's third line."""
    png = actor.shot("%s-probe.png" % actor.name.lower())
    px = actor.pixels(png, 150, 92, 600, 22)
    os.remove(png)
    rows = {}
    for y in range(92, 114):
        run = []
        for x in range(150, 750):
            if all(abs(v - 60) <= 6 for v in px.get((x, y), (0, 0, 0))):
                run.append(x)
                continue
            if 11 <= len(run) <= 16:
                rows[y] = (run[0] + run[-1]) // 2
                break
            run = []
    if not rows:
        return None
    ys = sorted(rows)
    y = (ys[0] + ys[-1]) // 2
    return rows.get(y, rows[ys[0]]), y


def attack(actor, defender, attackers_at, target):
    """Clicks the attackers' cell and the target's, ticks `take steps` in the attack panel,
    rolls (Space); a defender asked about the result answers in its own window, as the result
    says (a retreat included)."""
    words = "%s attacks %s from %s" % (actor.name, target, attackers_at)
    radio = None
    for attempt in range(3):
        actor.key("Escape")
        actor.cell(attackers_at)
        actor.cell(target)
        deadline = time.time() + 8
        while not radio and time.time() < deadline:
            time.sleep(1)
            radio = take_steps_radio(actor)
        if radio:
            break
        print("  (%s: the attack panel did not open; tried again)" % words)
    if not radio:
        actor.shot("%s-no-attack-panel.png" % actor.name.lower())
        fail("%s: no attack panel with a `take steps` choice" % words)
    actor.click(*radio)
    png = actor.shot("%s-probe.png" % actor.name.lower())
    lit = actor.pixels(png, radio[0], radio[1], 1, 1).get(radio, (0, 0, 0))
    os.remove(png)
    if min(lit) < 150:
        actor.shot("%s-take-steps-not-ticked.png" % actor.name.lower())
        fail("%s: `take steps` is not ticked after a click at %s" % (words, radio))
    pattern = r"^Combat at %s \(dice " % target
    _, _, result = order(actor, words, lambda: actor.key("space"), pattern)
    asked = re.search(r" answers: (.*)\.$", result)
    if asked:
        options = asked.group(1).split(" or ")
        # The first answer, "as the result says": a retreat it holds is carried out by the rules
        # (as the server carries it out), and both windows must still agree afterwards.
        pick = 0
        print("  %s is asked: %s; answers %d" % (defender.name, " / ".join(options), pick + 1))
        time.sleep(1.5)

        def answer():
            defender.focus()
            defender.key(str(pick + 1), "Return")
            actor.focus()
        order(defender, "%s answers: %s" % (defender.name, options[pick]), answer, r"^Combat at %s \(dice [^)]*\): (?!.* answers: )" % target)
    print("  " + [w for _, w in actor.lines() if w.startswith("Combat at %s " % target)][-1])


# Anna (German): movement, two stacks forward; combat, Panzergrenadier Rgt 37 against Hill 317
# (4 to 3, hills: the 1:2 column).
end_phase(anna, r"^Reinforcement phase ends\. Turn 1, German: Movement phase")
move(anna, "1612", "1113")  # SS Panzergrenadier Rgt 4 and SS Reconnaissance Bn 2, next to Mortain
move(anna, "2014", "1411")  # SS Panzergrenadier Rgt 37, next to Hill 317
end_phase(anna, r"^Movement phase ends\. Turn 1, German: Combat phase")
attack(anna, bert, "1411", "1312")
time.sleep(1)
shots += [anna.shot("2-anna-after-german-attack.png"), bert.shot("2-bert-after-german-attack.png")]
end_turn(anna, r"^Combat phase ends\. Turn 1, United States: Reinforcement phase")

# Bert (United States): a regiment moves; combat, Mortain's two units against the stack that
# came next to them (9 to 8, hills: 1:2).
bert.focus()
end_phase(bert, r"^Reinforcement phase ends\. Turn 1, United States: Movement phase")
move(bert, "0613", "0612")  # 12th Infantry Rgt
end_phase(bert, r"^Movement phase ends\. Turn 1, United States: Combat phase")
attack(bert, anna, "1012", "1113")
time.sleep(1)
shots += [bert.shot("3-bert-after-us-attack.png"), anna.shot("3-anna-after-us-attack.png")]
end_turn(bert, r"^Combat phase ends\. Turn 2, German: Reinforcement phase")
anna.focus()
time.sleep(1.5)
shots += [anna.shot("4-anna-turn-2.png"), bert.shot("4-bert-turn-2.png"), wim.shot("4-wim-watching.png")]

for png in shots:
    done = subprocess.run([sys.executable, check_png, png], capture_output=True, text=True)
    print("  " + (done.stdout.strip() or done.stderr.strip()))
    if done.returncode != 0:
        fail("blank or broken screenshot %s: %s" % (png, done.stdout + done.stderr))
for c in clients.values():
    c.proc.terminate()
for c in clients.values():
    try:
        c.proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        c.proc.kill()
server.terminate()
server.wait(timeout=20)
for c in clients.values():
    c.xvfb.kill()
errors = []
for name, path in logs.items():
    errors += ["%s: %s\n" % (name, l) for l in text(path).splitlines() if re.match(r"^\S+\s+ERROR", l)]
if errors:
    fail("ERROR lines in the logs:\n" + "".join(errors))
worst = max(abs(d) for _, _, d in checked)
print("online smoke test passed in %.0f s: %d orders, %d lines checked in the other windows (at most %.2f s apart), %d screenshots not blank, no ERROR line; in %s"
      % (time.time() - began, len(orders), len(checked), worst, len(shots), out))
