#!/usr/bin/env bash
# The Linux bundles on a bare machine: a minimal Debian 12 (debootstrap, cached in
# $HEXFRONT_CLEAN_ROOT, default /var/tmp/hexfront-clean-bookworm) with nothing of Rust or of this
# repository. Inside it, as root of that chroot:
#   1. only the runtime libraries README.txt lists, plus Xvfb: the .tar.gz unpacked into an empty
#      folder runs `hexfront --version`, `validate` on its scenarios and rulesets, and opens the
#      start screen (a non-blank PNG, copied out to $HEXFRONT_DIST/clean-machine-start.png);
#   2. `apt-get install ./hexfront_VERSION_amd64.deb` pulls what it declares and `hexfront` runs
#      from /usr/bin.
# Run packaging/linux.sh first. Needs root (chroot, mounts) and Debian's package mirror.
source "$(dirname "$0")/lib.sh"
tarball="$DIST/hexfront-$VERSION-linux-x86_64.tar.gz"
debfile="$DIST/hexfront_${VERSION}_amd64.deb"
[ -f "$tarball" ] && [ -f "$debfile" ] || { echo "error: run packaging/linux.sh first ($tarball)" >&2; exit 1; }
rootfs="${HEXFRONT_CLEAN_ROOT:-/var/tmp/hexfront-clean-bookworm}"

step "a bare Debian 12 in $rootfs"
need_packages debootstrap=debootstrap
if [ ! -x "$rootfs/usr/bin/apt-get" ]; then
  rm -rf "$rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >/dev/null
fi
mounts=(proc sys dev dev/pts)
cleanup() { for m in dev/pts dev sys proc; do umount -l "$rootfs/$m" 2>/dev/null || true; done; }
trap cleanup EXIT
mount -t proc proc "$rootfs/proc"
mount --rbind /sys "$rootfs/sys"
mount --rbind /dev "$rootfs/dev"
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
rm -rf "$rootfs/root/bundle" && mkdir -p "$rootfs/root/bundle"
cp "$tarball" "$debfile" "$rootfs/root/bundle/"

in_chroot() { chroot "$rootfs" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 bash -euo pipefail -c "$1"; }

step "1. the .tar.gz with only README.txt's runtime libraries"
in_chroot "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  xvfb xauth libx11-6 libxcursor1 libxrandr2 libxi6 libxkbcommon-x11-0 libvulkan1 mesa-vulkan-drivers >/dev/null
  ! command -v cargo && ! command -v rustc && echo 'no Rust on this machine'
  rm -rf /root/try && mkdir /root/try && cd /root/try && tar -xzf /root/bundle/$(basename "$tarball")
  cd hexfront-$VERSION-linux-x86_64 && ls
  ./hexfront --version
  ./hexfront validate scenarios/*.ron rulesets/*.ron
  HEXFRONT_DATA_DIR=/root/try/data timeout 300 xvfb-run -a -s '-screen 0 1600x1000x24' \
    ./hexfront --screenshot /root/try/start.png --frames 30 2>/root/try/log.txt || { cat /root/try/log.txt; exit 1; }
  ! grep -E '\bERROR\b' /root/try/log.txt"
cp "$rootfs/root/try/start.png" "$DIST/clean-machine-start.png"
python3 .ci/check_png.py "$DIST/clean-machine-start.png"
echo "start screen on the bare machine: $DIST/clean-machine-start.png"

step "2. the .deb with apt"
in_chroot "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /root/bundle/$(basename "$debfile") >/dev/null
  command -v hexfront && hexfront --version
  hexfront validate /usr/share/hexfront/scenarios/*.ron
  test -f /usr/share/applications/hexfront.desktop && test -f /usr/share/icons/hicolor/256x256/apps/hexfront.png
  dpkg -s hexfront | grep -E '^(Status|Version|Depends)'"
echo "the bundles run on a bare Debian 12"
