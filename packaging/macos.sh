#!/usr/bin/env bash
# macOS: on a Mac (the release workflow's macos runner) it builds hexfront for aarch64 and x86_64,
# joins them with lipo into one universal binary, lays out Hexfront.app and makes
# hexfront-VERSION-macos-universal.dmg. Elsewhere it checks what can be checked without a Mac:
# `cargo check` of the game for aarch64-apple-darwin (where rustup can add that target), and the
# .app layout and Info.plist (Python's plistlib) with this machine's binary standing in.
#   bash packaging/macos.sh
source "$(dirname "$0")/lib.sh"
name="hexfront-$VERSION-macos-universal"

if [ "$(uname -s)" = Darwin ]; then
  step "release builds for both Mac processors"
  rustup target add aarch64-apple-darwin x86_64-apple-darwin
  export MACOSX_DEPLOYMENT_TARGET=11.0
  cargo build --release --locked --target aarch64-apple-darwin
  cargo build --release --locked --target x86_64-apple-darwin
  mkdir -p "$DIST/universal"
  lipo -create -output "$DIST/universal/hexfront" \
    "$CARGO_TARGET_DIR/aarch64-apple-darwin/release/hexfront" \
    "$CARGO_TARGET_DIR/x86_64-apple-darwin/release/hexfront"
  lipo -info "$DIST/universal/hexfront"
  step "Hexfront.app and the .dmg"
  rm -rf "$DIST/dmg" && mkdir -p "$DIST/dmg"
  bash packaging/macos/make-app.sh "$DIST/universal/hexfront" "$DIST/dmg"
  # An ad-hoc signature over the whole bundle: Apple silicon runs nothing unsigned, and a bundle
  # whose parts were signed apart reads as damaged. (Not notarized: README says how to open it.)
  codesign --force --deep --sign - "$DIST/dmg/Hexfront.app"
  codesign --verify --deep --strict --verbose=2 "$DIST/dmg/Hexfront.app"
  python3 packaging/macos/check_app.py "$DIST/dmg/Hexfront.app"
  "$DIST/dmg/Hexfront.app/Contents/MacOS/hexfront" --version
  "$DIST/dmg/Hexfront.app/Contents/MacOS/hexfront" validate scenarios/*.ron
  ln -s /Applications "$DIST/dmg/Applications"
  cp packaging/README-players.md "$DIST/dmg/README.txt"
  rm -f "$DIST/$name.dmg"
  hdiutil create -volname Hexfront -srcfolder "$DIST/dmg" -ov -format UDZO "$DIST/$name.dmg"
  echo "$DIST/$name.dmg: $(size_mib "$DIST/$name.dmg")"
  exit 0
fi

step "cargo check --target aarch64-apple-darwin (the game, as far as a non-Mac can)"
if rustup target list --installed 2>/dev/null | grep -qx aarch64-apple-darwin \
  || rustup target add aarch64-apple-darwin; then
  need_packages clang=clang || { echo "SKIPPED: apt could not install clang"; exit 0; }
  # Apple's C compiler and SDK are not here: packaging/macos/check-cc.sh stands in for the one C
  # part of the dependencies (see there); every Rust crate, the game's own code included, is
  # checked for the Mac.
  CC_aarch64_apple_darwin="$ROOT/packaging/macos/check-cc.sh" AR_aarch64_apple_darwin=ar \
    cargo check --release --locked --target aarch64-apple-darwin
else
  echo "SKIPPED: rustup could not install the aarch64-apple-darwin standard library here"
fi

step "the .app layout and its Info.plist (this machine's binary stands in for the Mac one)"
stand_in="$CARGO_TARGET_DIR/release/hexfront"
[ -x "$stand_in" ] || stand_in="$(type -P true)"
layout="$(mktemp -d)"
bash packaging/macos/make-app.sh "$stand_in" "$layout"
python3 packaging/macos/check_app.py "$layout/Hexfront.app"
(cd "$layout" && find Hexfront.app -maxdepth 3 | sort | sed 's/^/  /')
