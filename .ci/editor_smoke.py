#!/usr/bin/env python3
"""The editor driven as a designer would, under a virtual display with xdotool: from a new
12x10 map it draws a river along cell sides, lays a road, places two units a side and an
objective, saves (Ctrl+S, Enter), checks the file with `hexfront validate`, playtests it (F5)
through one turn, and comes back to the editor (F5). Screenshots go to OUT.

    python3 .ci/editor_smoke.py BINARY OUT_DIR
"""

import math
import os
import re
import subprocess
import sys
import time

binary, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
os.makedirs(out, exist_ok=True)
work = os.path.join(out, "work")
os.makedirs(work, exist_ok=True)
display = ":%d" % (150 + os.getpid() % 100)
env = dict(os.environ, DISPLAY=display, HEXFRONT_DATA_DIR=os.path.join(out, "data"))

xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1600x1000x24"], stderr=subprocess.DEVNULL)
time.sleep(1.5)
log_path = os.path.join(out, "editor.log")
log = open(log_path, "w")
app = subprocess.Popen([binary, "edit"], cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)


def fail(message):
    print("error: " + message, file=sys.stderr)
    print(open(log_path).read()[-4000:], file=sys.stderr)
    app.kill()
    xvfb.kill()
    sys.exit(1)


def xdo(*args):
    subprocess.run(["xdotool", *map(str, args)], env=env, check=True)


def shot(name):
    path = os.path.join(out, name)
    subprocess.run(["import", "-window", "root", path], env=env, check=True)
    return path


def wait_for(pattern, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if app.poll() is not None:
            fail("the editor exited")
        found = re.findall(pattern, open(log_path).read())
        if found:
            return found[-1]
        time.sleep(0.5)
    fail("waited %d s for %r" % (seconds, pattern))


# Where the map sits on screen, as the editor logs it once it has fitted the map in view.
numbers = wait_for(r"editor board: rect ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+); centre ([-\d.]+) ([-\d.]+); zoom ([\d.]+)")
x0, y0, x1, y1, cx, cy, zoom = map(float, numbers)
time.sleep(2)


def at(label, toward=None, share=0.4):
    """Screen point of a cell's centre (flat-topped hexes, 40-unit sides), or `share` of the
    way toward another cell's centre."""
    def world(l):
        c, r = int(l[:2]) - 1, int(l[2:]) - 1
        return 60.0 * c, math.sqrt(3) * 40.0 * (r + 0.5 * (c & 1))
    wx, wy = world(label)
    if toward:
        tx, ty = world(toward)
        wx, wy = wx + (tx - wx) * share, wy + (ty - wy) * share
    return int((x0 + x1) / 2 + (wx - cx) * zoom), int((y0 + y1) / 2 + (wy - cy) * zoom)


def key(*names):
    """Presses keys; `ctrl+s` holds Ctrl down across frames (a window that redraws only on
    input may see a quick press and release of Ctrl in one frame, as if never held)."""
    for n in names:
        *mods, last = n.split("+")
        for m in mods:
            xdo("keydown", m)
            time.sleep(0.2)
        xdo("key", last)
        time.sleep(0.2)
        for m in mods:
            xdo("keyup", m)
        time.sleep(0.4)


def drag(points):
    xdo("mousemove", *points[0])
    time.sleep(0.3)
    xdo("mousedown", 1)
    time.sleep(0.3)
    for p in points[1:]:
        xdo("mousemove", *p)
        time.sleep(0.15)
    xdo("mouseup", 1)
    time.sleep(0.4)


def click(label):
    xdo("mousemove", *at(label))
    time.sleep(0.3)
    xdo("click", 1)
    time.sleep(0.4)


# Keys go to the focused window: a bare X server gives none the focus.
window = subprocess.run(["xdotool", "search", "--name", "Hexfront"], env=env, capture_output=True, text=True).stdout.split()
if not window:
    fail("no Hexfront window")
xdo("windowfocus", window[0])
xdo("mousemove", 800, 500)
time.sleep(0.5)
# A river down the sides between columns 06 and 07 (both sides each 06 cell shares with 07).
key("e")
river = []
for r in range(2, 10):
    river += [at("06%02d" % r, "07%02d" % r), at("06%02d" % r, "07%02d" % (r + 1))]
drag(river)
# A road across row 05.
key("r")
drag([at("%02d05" % c) for c in range(1, 13)])
# Two units a side: Blue (side 1) west of the river, Red (side 2) east.
key("u")
click("0204")
click("0206")
key("2")
click("1104")
click("1106")
# An objective at the road's river crossing.
key("o")
click("0705")
key("v")
click("0303")
shot("editor-built.png")
# Save: Ctrl+S asks where (scenarios/new-scenario.ron), Enter saves.
key("ctrl+s")
time.sleep(0.5)
key("Return")
time.sleep(1)
saved = os.path.join(work, "scenarios", "new-scenario.ron")
if not os.path.exists(saved):
    shot("editor-not-saved.png")
    fail("Ctrl+S, Enter did not write " + saved)
text = open(saved).read()
checks = {
    "a river": "feature: River" in text,
    "a road": "roads: [" in text,
    "two Blue units": text.count(', side: "blue"') == 2,
    "two Red units": text.count(', side: "red"') == 2,
    "an objective": 'objectives: [' in text and '"0705"' in text,
}
missing = [k for k, ok in checks.items() if not ok]
if missing:
    print(text, file=sys.stderr)
    fail("the saved scenario lacks " + ", ".join(missing))
validate = subprocess.run([binary, "validate", saved], capture_output=True, text=True, env=env)
print(validate.stdout.strip() or validate.stderr.strip())
if validate.returncode != 0:
    fail("hexfront validate refused the saved scenario")
# Playtest (F5), one turn: Enter ends each phase and seats the next player, Y confirms the end
# of a player turn.
key("F5")
time.sleep(3)
for _ in range(12):
    key("Return")
    time.sleep(0.3)
    key("y")
shot("playtest.png")
# Back to the editor (F5), where it left off.
key("F5")
time.sleep(2)
shot("editor-back.png")
saves = os.path.join(out, "data", "saves")
autosaves = [os.path.join(saves, f) for f in os.listdir(saves) if f.startswith("autosave-") and f.endswith(".ron")] if os.path.isdir(saves) else []
if not autosaves:
    fail("the playtest left no autosave")
played = subprocess.run([binary, "validate", autosaves[0]], capture_output=True, text=True, env=env)
print(played.stdout.strip() or played.stderr.strip())
if "Turn 2" not in played.stdout and "Game over" not in played.stdout:
    fail("the playtest did not reach turn 2")
app.terminate()
app.wait(timeout=20)
xvfb.kill()
errors = [l for l in open(log_path) if re.search(r"\bERROR\b", re.sub(r"\x1b\[[0-9;]*m", "", l))]
if errors:
    fail("the editor logged errors:\n" + "".join(errors))
print("editor smoke test passed: screenshots in " + out)
