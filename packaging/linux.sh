#!/usr/bin/env bash
# Builds the Linux release bundles here: hexfront-VERSION-linux-x86_64.tar.gz and
# hexfront_VERSION_amd64.deb, in $HEXFRONT_DIST (default: the release target folder's dist/), then
# checks the .tar.gz as a player gets it: unpacked into an empty folder, with an empty environment
# and home, `hexfront --version`, `hexfront validate` on its scenarios and rulesets, and the start
# screen under Xvfb (a non-blank PNG). `packaging/clean-machine.sh` repeats that on a bare Debian.
#   bash packaging/linux.sh            # build, bundle, check
#   bash packaging/linux.sh --no-check # build and bundle only
source "$(dirname "$0")/lib.sh"
check=1
[ "${1:-}" = "--no-check" ] && check=0

step "release build (cargo build --release --locked)"
cargo build --release --locked
bin="$CARGO_TARGET_DIR/release/hexfront"
"$bin" --version

name="hexfront-$VERSION-linux-x86_64"
stage="$DIST/$name"
step "the .tar.gz: $name"
rm -rf "$stage" && mkdir -p "$stage"
stage_common "$stage"
strip -o "$stage/hexfront" "$bin"
cp assets/icon/hexfront.png packaging/linux/hexfront.desktop "$stage/"
tar -C "$DIST" --owner=0 --group=0 --numeric-owner -czf "$DIST/$name.tar.gz" "$name"
echo "$DIST/$name.tar.gz: $(size_mib "$DIST/$name.tar.gz")"

step "the .deb"
# What the binary links at load time (Bevy opens Vulkan, X11 and xkbcommon itself when it starts).
echo "linked: $(objdump -p "$stage/hexfront" | awk '/NEEDED/ {print $2}' | tr '\n' ' ')"
deb="$DIST/deb-root"
rm -rf "$deb"
install -Dm755 "$stage/hexfront" "$deb/usr/bin/hexfront"
install -Dm644 packaging/linux/hexfront.desktop "$deb/usr/share/applications/hexfront.desktop"
install -Dm644 assets/icon/hexfront.png "$deb/usr/share/icons/hicolor/256x256/apps/hexfront.png"
install -Dm644 assets/icon/hexfront.svg "$deb/usr/share/icons/hicolor/scalable/apps/hexfront.svg"
install -Dm644 packaging/README-players.md "$deb/usr/share/doc/hexfront/README"
mkdir -p "$deb/usr/share/hexfront"
cp -r "$stage/scenarios" "$stage/rulesets" "$deb/usr/share/hexfront/"
mkdir -p "$deb/DEBIAN"
installed_kib="$(du -sk "$deb/usr" | cut -f1)"
# The newest glibc symbol version the binary uses is the oldest glibc it runs on.
glibc="$(objdump -T "$stage/hexfront" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)"
sed -e "s/@VERSION@/$VERSION/" -e "s/@SIZE@/$installed_kib/" -e "s/@GLIBC@/$glibc/" packaging/linux/control >"$deb/DEBIAN/control"
debfile="$DIST/hexfront_${VERSION}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$deb" "$debfile" >/dev/null
dpkg-deb --info "$debfile" | sed -n '/Package:/,/Description:/p'
echo "$debfile: $(size_mib "$debfile")"

[ "$check" = 1 ] || exit 0

step "check: the .tar.gz unpacked into an empty folder, with an empty environment"
need_packages xvfb-run=xvfb xauth=xauth
[ -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] || need_packages vulkaninfo=mesa-vulkan-drivers
try="$(mktemp -d)"
tar -C "$try" -xzf "$DIST/$name.tar.gz"
cd "$try/$name"
# NO_COLOR: Bevy's log colours its level names even into a file, which would hide `ERROR`.
clean_env=(env -i "HOME=$try/home" "PATH=/usr/bin:/bin" "LANG=C.UTF-8" "NO_COLOR=1")
"${clean_env[@]}" ./hexfront --version
"${clean_env[@]}" ./hexfront validate scenarios/*.ron rulesets/*.ron
"${clean_env[@]}" timeout 300 xvfb-run -a -s "-screen 0 1600x1000x24" ./hexfront --screenshot "$try/start.png" --frames 30 \
  2>"$try/log.txt" || { cat "$try/log.txt"; exit 1; }
python3 "$ROOT/.ci/check_png.py" "$try/start.png"
if grep -E '\bERROR\b' "$try/log.txt"; then echo "error: the start screen logged errors" >&2; exit 1; fi
echo "start screen: $try/start.png"
echo "files it wrote under the empty home: $(cd "$try/home" 2>/dev/null && find . -type f | tr '\n' ' ')"
