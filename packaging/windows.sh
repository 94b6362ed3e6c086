#!/usr/bin/env bash
# Cross-builds hexfront.exe here (target x86_64-pc-windows-gnu, Debian's mingw-w64), bundles
# hexfront-VERSION-windows-x86_64.zip, and checks the .exe under Wine (Debian's wine): its
# --version, `validate` on every scenario, ruleset and saved-game fixture, `odds` on every combat
# case and `replay --verify` of the committed game, each output compared line for line with the
# Linux build's. Where the Windows standard library or the packages cannot be installed on this
# machine, it says so and exits 0: that is not a failure of the game.
#   bash packaging/windows.sh
source "$(dirname "$0")/lib.sh"
target=x86_64-pc-windows-gnu

skip() {
  echo "SKIPPED: $1" >&2
  echo "The Windows build was not checked on this machine; the release workflow builds it on Windows." >&2
  exit 0
}

step "the Windows target and toolchain"
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
  rustup target add "$target" || skip "rustup could not install the $target standard library here (no access to static.rust-lang.org?)"
fi
need_packages x86_64-w64-mingw32-gcc=mingw-w64 x86_64-w64-mingw32-windres=binutils-mingw-w64-x86-64 \
  || skip "apt could not install mingw-w64 (the linker for $target)"
need_packages wine=wine zip=zip || skip "apt could not install wine"
command -v wine64 >/dev/null || need_packages wine64=wine64 || true
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc
export AR_x86_64_pc_windows_gnu=x86_64-w64-mingw32-ar

step "cross-build: cargo build --release --locked --target $target"
cargo build --release --locked --target "$target"
exe="$CARGO_TARGET_DIR/$target/release/hexfront.exe"

step "the Linux build to compare with (cargo build --release --locked)"
cargo build --release --locked
linux="$CARGO_TARGET_DIR/release/hexfront"

name="hexfront-$VERSION-windows-x86_64"
stage="$DIST/$name"
step "the .zip: $name"
rm -rf "$stage" && mkdir -p "$stage"
stage_common "$stage"
x86_64-w64-mingw32-strip -o "$stage/hexfront.exe" "$exe"
# Windows readers expect CRLF in a .txt.
sed -i 's/$/\r/' "$stage/README.txt"
(cd "$DIST" && rm -f "$name.zip" && zip -qr "$name.zip" "$name")
echo "$DIST/$name.zip: $(size_mib "$DIST/$name.zip")"
x86_64-w64-mingw32-objdump -p "$stage/hexfront.exe" | awk '/DLL Name/ {print $3}' | sort -u | tr '\n' ' '
echo

step "check under Wine: the .exe's headless commands against the Linux build's"
export WINEPREFIX="$(mktemp -d)/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
wine_bin="$(command -v wine64 || command -v wine)"
"$wine_bin" wineboot --init >/dev/null 2>&1 || true
out="$(mktemp -d)"
compare() {
  local label="$1"; shift
  "$linux" "$@" >"$out/linux.txt" 2>&1 || true
  "$wine_bin" "$stage/hexfront.exe" "$@" 2>&1 | tr -d '\r' >"$out/windows.txt" || true
  if ! diff -u "$out/linux.txt" "$out/windows.txt"; then
    echo "error: hexfront.exe $label differs from Linux (above)" >&2
    exit 1
  fi
  printf 'same  %-58s %s\n' "$label" "$(wc -l <"$out/linux.txt") lines"
}
"$wine_bin" "$stage/hexfront.exe" --version | tr -d '\r'
for f in scenarios/*.ron assets/rulesets/*.ron tests/fixtures/*.ron; do
  compare "validate $f" validate "$f"
done
for c in tests/cases/*.ron; do
  compare "odds $c" odds "$c"
  compare "odds --json $c" odds --json "$c"
done
compare "replay --verify tests/fixtures/smolensk-game.ron" replay --verify tests/fixtures/smolensk-game.ron
compare "resolve --seed 7 (a seeded roll)" resolve --seed 7 tests/cases/next-war-chorwon.ron
echo "hexfront.exe gave the Linux outputs on every check"
