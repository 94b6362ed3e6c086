#!/usr/bin/env bash
# The C compiler for `cargo check --target aarch64-apple-darwin` on a machine without Apple's
# compiler and SDK (packaging/macos.sh, off a Mac only). The one C part of the game's dependencies
# (blake3's NEON code) needs the SDK's headers; this compiles an empty translation unit in its
# place with clang for the Mac target: a real arm64 Mach-O object that `cargo check` never links.
# The Rust code, all of the game, is what gets checked; the Mac runner builds the C for real.
out=""
prev=""
for arg in "$@"; do
  [ "$prev" = "-o" ] && out="$arg"
  prev="$arg"
done
if [ -z "$out" ]; then
  # cc-rs asking which compiler this is (it preprocesses a file of #ifdefs): clang answers.
  exec clang --target=arm64-apple-macos11 -E "$@"
fi
exec clang --target=arm64-apple-macos11 -x c -c /dev/null -o "$out"
