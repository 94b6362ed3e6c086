#!/usr/bin/env bash
# The Linux bundles on a bare machine: a minimal Debian 12 (debootstrap, kept untouched in
# $HEXFRONT_CLEAN_ROOT, default /var/tmp/hexfront-clean-bookworm) with nothing of Rust or of this
# repository. Each step runs in a fresh copy of it, as root of that chroot:
#   1. only the runtime libraries README.txt lists, a software Vulkan driver and Xvfb: the
#      .tar.gz unpacked into an empty folder runs `hexfront --version`, `validate` on its
#      scenarios and rulesets, and opens the start screen (a non-blank PNG, copied out to
#      $HEXFRONT_DIST/clean-machine-start.png) with no ERROR in its log;
#   2. `apt-get install ./hexfront_VERSION_amd64.deb` alone pulls what the game needs (its
#      Depends and Recommends), and /usr/bin/hexfront validates and opens the start screen.
# Run packaging/linux.sh first. Needs root (chroot, mounts) and Debian's package mirror.
source "$(dirname "$0")/lib.sh"
tarball="$DIST/hexfront-$VERSION-linux-x86_64.tar.gz"
debfile="$DIST/hexfront_${VERSION}_amd64.deb"
if [ ! -f "$tarball" ] || [ ! -f "$debfile" ]; then
  echo "error: run packaging/linux.sh first (no $tarball or $debfile)" >&2
  exit 1
fi
base="${HEXFRONT_CLEAN_ROOT:-/var/tmp/hexfront-clean-bookworm}"
work="$base-work"

step "a bare Debian 12 in $base"
need_packages debootstrap=debootstrap
if [ ! -x "$base/usr/bin/apt-get" ]; then
  rm -rf --one-file-system "$base"
  debootstrap --variant=minbase bookworm "$base" http://deb.debian.org/debian >/dev/null
fi

unmount() {
  local m
  for m in dev sys proc; do
    mountpoint -q "$work/$m" && umount -R -l "$work/$m" 2>/dev/null || true
  done
}
trap 'unmount; rm -rf --one-file-system "$work"' EXIT

# A fresh copy of the bare root with /proc, /sys and /dev (mounted as slaves, so unmounting them
# never reaches the host's), the bundles in /root/bundle.
fresh_root() {
  unmount
  rm -rf --one-file-system "$work"
  cp -a "$base" "$work"
  mount -t proc proc "$work/proc"
  mount --rbind /sys "$work/sys" && mount --make-rslave "$work/sys"
  mount --rbind /dev "$work/dev" && mount --make-rslave "$work/dev"
  cp /etc/resolv.conf "$work/etc/resolv.conf"
  mkdir -p "$work/root/bundle"
  cp "$tarball" "$debfile" "$work/root/bundle/"
}

# NO_COLOR: Bevy's log colours its level names even into a file, which would hide `ERROR`.
in_chroot() {
  chroot "$work" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 NO_COLOR=1 \
    DEBIAN_FRONTEND=noninteractive bash -euo pipefail -c "$1"
}

# The start screen under Xvfb in the chroot, from PROGRAM; the PNG copied out to OUT.
start_screen() {
  in_chroot "rm -rf /root/shot && mkdir -p /root/shot
    HEXFRONT_DATA_DIR=/root/shot/data timeout 300 xvfb-run -a -s '-screen 0 1600x1000x24' \
      $1 --screenshot /root/shot/start.png --frames 30 2>/root/shot/log.txt || { cat /root/shot/log.txt; exit 1; }
    if grep -E '\bERROR\b' /root/shot/log.txt; then echo 'error: the start screen logged errors' >&2; exit 1; fi"
  cp "$work/root/shot/start.png" "$2"
  python3 .ci/check_png.py "$2"
  echo "start screen: $2"
}

step "1. the .tar.gz with only README.txt's runtime libraries (a fresh bare root)"
fresh_root
in_chroot "apt-get update -qq && apt-get install -y -qq --no-install-recommends xvfb xauth \
    libx11-6 libx11-xcb1 libxcursor1 libxi6 libxkbcommon-x11-0 libvulkan1 mesa-vulkan-drivers >/dev/null
  if command -v cargo || command -v rustc; then echo 'error: this root has Rust' >&2; exit 1; fi
  echo 'no Rust, no -dev package:' \$(dpkg -l | awk '/^ii/ && \$2 ~ /-dev(:|\$)/ {print \$2}' | wc -l) '-dev packages installed'
  mkdir /root/try && cd /root/try && tar -xzf /root/bundle/$(basename "$tarball")
  cd hexfront-$VERSION-linux-x86_64 && ls
  ./hexfront --version
  ./hexfront validate scenarios/*.ron rulesets/*.ron"
start_screen "/root/try/hexfront-$VERSION-linux-x86_64/hexfront" "$DIST/clean-machine-start.png"

step "2. the .deb with apt, on another fresh bare root"
fresh_root
in_chroot "apt-get update -qq && apt-get install -y -qq /root/bundle/$(basename "$debfile") >/dev/null
  dpkg -s hexfront | grep -E '^(Status|Version|Depends|Recommends)'
  command -v hexfront && hexfront --version
  hexfront validate /usr/share/hexfront/scenarios/*.ron
  test -f /usr/share/applications/hexfront.desktop && test -f /usr/share/icons/hicolor/256x256/apps/hexfront.png
  apt-get install -y -qq --no-install-recommends xvfb xauth >/dev/null"
start_screen /usr/bin/hexfront "$DIST/clean-machine-deb-start.png"
echo "the bundles run on a bare Debian 12"
