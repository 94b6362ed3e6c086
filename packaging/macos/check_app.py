#!/usr/bin/env python3
"""Checks a Hexfront.app layout as macOS reads it (standard library only): Info.plist parses as a
property list, names an executable and an icon that are in the bundle, carries the version of
Cargo.toml, and the executable is executable. Usage: check_app.py Hexfront.app [Cargo.toml]"""
import os, plistlib, re, sys

app = sys.argv[1]
cargo = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../Cargo.toml")
version = re.search(r'^version = "(.*)"', open(cargo).read(), re.M).group(1)
plist_path = os.path.join(app, "Contents", "Info.plist")
with open(plist_path, "rb") as f:
    info = plistlib.load(f)  # raises on a malformed list
problems = []
for key in ["CFBundleExecutable", "CFBundleIdentifier", "CFBundleName", "CFBundleIconFile",
            "CFBundlePackageType", "CFBundleShortVersionString", "CFBundleVersion", "LSMinimumSystemVersion"]:
    if not isinstance(info.get(key), str) or not info[key]:
        problems.append(f"{plist_path}: {key} is missing or not a string")
if info.get("CFBundlePackageType") != "APPL":
    problems.append(f"{plist_path}: CFBundlePackageType must be APPL")
for key in ["CFBundleShortVersionString", "CFBundleVersion"]:
    if info.get(key) != version:
        problems.append(f"{plist_path}: {key} is {info.get(key)!r}, Cargo.toml says {version!r}")
if not re.fullmatch(r"[A-Za-z0-9.-]+", info.get("CFBundleIdentifier", "")):
    problems.append(f"{plist_path}: CFBundleIdentifier may hold only letters, digits, '.' and '-'")
exe = os.path.join(app, "Contents", "MacOS", info.get("CFBundleExecutable", ""))
if not os.path.isfile(exe) or not os.access(exe, os.X_OK):
    problems.append(f"{exe}: the executable named by CFBundleExecutable is missing or not executable")
icon = os.path.join(app, "Contents", "Resources", info.get("CFBundleIconFile", ""))
if not os.path.isfile(icon) or open(icon, "rb").read(4) != b"icns":
    problems.append(f"{icon}: the icon named by CFBundleIconFile is missing or not an .icns file")
for folder in ["scenarios", "rulesets"]:
    path = os.path.join(app, "Contents", "Resources", folder)
    if not os.path.isdir(path) or not any(n.endswith(".ron") for n in os.listdir(path)):
        problems.append(f"{path}: missing or holds no .ron files")
if problems:
    sys.exit("\n".join(problems))
print(f"{app}: Info.plist valid ({info['CFBundleIdentifier']} {version}), executable, icon and resources in place")
