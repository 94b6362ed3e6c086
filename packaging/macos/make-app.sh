#!/usr/bin/env bash
# Lays out Hexfront.app from a built binary (the release workflow passes the universal binary that
# `lipo` made of the aarch64 and x86_64 builds):
#   Hexfront.app/Contents/Info.plist          (packaging/macos/Info.plist, version filled in)
#   Hexfront.app/Contents/MacOS/hexfront      (the program)
#   Hexfront.app/Contents/Resources/hexfront.icns, scenarios/, rulesets/, README.txt
#   bash packaging/macos/make-app.sh BINARY OUT_DIR
set -euo pipefail
bin="$1"; out="$2"
root="$(cd "$(dirname "$0")/../.." && pwd)"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)"
app="$out/Hexfront.app"
rm -rf "$app"
mkdir -p "$app/Contents/MacOS" "$app/Contents/Resources/scenarios" "$app/Contents/Resources/rulesets"
sed "s/@VERSION@/$version/g" "$root/packaging/macos/Info.plist" >"$app/Contents/Info.plist"
printf 'APPL????' >"$app/Contents/PkgInfo"
cp "$bin" "$app/Contents/MacOS/hexfront"
chmod 755 "$app/Contents/MacOS/hexfront"
cp "$root/assets/icon/hexfront.icns" "$app/Contents/Resources/"
cp "$root/scenarios/"*.ron "$app/Contents/Resources/scenarios/"
cp "$root/assets/rulesets/"*.ron "$app/Contents/Resources/rulesets/"
cp "$root/packaging/README-players.md" "$app/Contents/Resources/README.txt"
echo "$app"
