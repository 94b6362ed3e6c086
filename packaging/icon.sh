#!/usr/bin/env bash
# Regenerates the app icon's pictures from assets/icon/hexfront.svg:
#   hexfront.png (256 px: Linux menus, the .deb, README), hexfront-64.png (the window icon, built
#   into the binary), hexfront.ico (Windows: the .exe and the title bar), hexfront.icns (macOS .app).
# Needs Debian's librsvg2-bin, icoutils and icnsutils (installed when missing).
set -euo pipefail
cd "$(dirname "$0")/../assets/icon"
need=()
command -v rsvg-convert >/dev/null || need+=(librsvg2-bin)
command -v icotool >/dev/null || need+=(icoutils)
command -v png2icns >/dev/null || need+=(icnsutils)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" fonts-dejavu-core >/dev/null
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for size in 16 32 48 64 128 256 512 1024; do
  rsvg-convert -w "$size" -h "$size" hexfront.svg -o "$work/$size.png"
done
cp "$work/256.png" hexfront.png
cp "$work/64.png" hexfront-64.png
icotool -c -o hexfront.ico "$work"/{16,32,48,64}.png -r "$work/128.png" -r "$work/256.png"
png2icns hexfront.icns "$work"/{16,32,48,128,256,512,1024}.png >/dev/null
ls -l hexfront.png hexfront-64.png hexfront.ico hexfront.icns
