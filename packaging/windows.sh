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
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc
export AR_x86_64_pc_windows_gnu=x86_64-w64-mingw32-ar
# build.rs fails rather than build an .exe without its icon.
export HEXFRONT_REQUIRE_ICON=1

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
x86_64-w64-mingw32-objdump -h "$stage/hexfront.exe" | grep -q '\.rsrc' \
  || { echo "error: hexfront.exe has no resources (icon, version)" >&2; exit 1; }
echo "hexfront.exe carries its icon and version resources (.rsrc)"
# Windows readers expect CRLF in a .txt.
sed -i 's/$/\r/' "$stage/README.txt"
(cd "$DIST" && rm -f "$name.zip" && zip -qr "$name.zip" "$name")
echo "$DIST/$name.zip: $(size_mib "$DIST/$name.zip")"
x86_64-w64-mingw32-objdump -p "$stage/hexfront.exe" | awk '/DLL Name/ {print $3}' | sort -u | tr '\n' ' '
echo

step "check under Wine: the .exe's headless commands against the Linux build's"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export WINEPREFIX="$out/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# Debian's `wine` wrapper warns on every run that wine32 is missing; the 64-bit loader does not.
wine_bin="$(ls /usr/lib/wine/wine64 2>/dev/null || command -v wine64 || command -v wine)"
"$wine_bin" wineboot --init >/dev/null 2>&1 || true
# The check runs a copy of the bundled .exe beside a stand-in for bcryptprimitives.dll, which
# Wine 8 lacks (see packaging/windows/wine-bcryptprimitives.c); the .zip does not carry it.
mkdir -p "$out/exe"
cp "$stage/hexfront.exe" "$out/exe/"
if ! "$wine_bin" "$out/exe/hexfront.exe" --version >/dev/null 2>&1; then
  x86_64-w64-mingw32-gcc -O2 -shared -o "$out/exe/bcryptprimitives.dll" \
    packaging/windows/wine-bcryptprimitives.c -ladvapi32
  echo "this Wine lacks bcryptprimitives.dll (ProcessPrng): the check uses the stand-in"
fi
# Runs a command on both builds: the same output (stdout and stderr, CRLF read as LF) and the same
# exit status, or the script fails.
compare() {
  local label="$1" linux_status=0 windows_status=0; shift
  "$linux" "$@" >"$out/linux.txt" 2>&1 || linux_status=$?
  "$wine_bin" "$out/exe/hexfront.exe" "$@" >"$out/windows.raw" 2>&1 || windows_status=$?
  tr -d '\r' <"$out/windows.raw" >"$out/windows.txt"
  echo "exit status $linux_status" >>"$out/linux.txt"
  echo "exit status $windows_status" >>"$out/windows.txt"
  if ! diff -u "$out/linux.txt" "$out/windows.txt"; then
    echo "error: hexfront.exe $label differs from Linux (above)" >&2
    exit 1
  fi
  printf 'same  %-58s %s\n' "$label" "$(($(wc -l <"$out/linux.txt") - 1)) lines, exit $linux_status"
}
"$wine_bin" "$out/exe/hexfront.exe" --version | tr -d '\r'
for f in scenarios/*.ron assets/rulesets/*.ron tests/fixtures/*.ron; do
  compare "validate $f" validate "$f"
done
for c in tests/cases/*.ron; do
  compare "odds $c" odds "$c"
  compare "odds --json $c" odds --json "$c"
done
compare "replay --verify tests/fixtures/smolensk-game.ron" replay --verify tests/fixtures/smolensk-game.ron
# A game played on a Linux server (hash-chained dice): the same seed, dice and hashes here.
compare "replay --verify tests/fixtures/online-mortain-chained.ron" replay --verify tests/fixtures/online-mortain-chained.ron
compare "resolve --seed 7 (a seeded roll)" resolve --seed 7 tests/cases/next-war-chorwon.ron
# A broken file: the same located error and the same failing exit status.
printf 'Scenario(\n    name: "Broken",\n    turns: "eight",\n)\n' >"$out/broken.ron"
compare "validate (a broken scenario)" validate "$out/broken.ron"
echo "hexfront.exe gave the Linux outputs on every check"
