# Shared by the packaging scripts (sourced, not run): where things are and what they are called.
# The builds go to their own target folder, apart from the tests' debug builds, so a release
# build never waits on (or evicts) the other.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export CARGO_TARGET_DIR="${HEXFRONT_PACKAGE_TARGET:-$HOME/.cache/hexfront-release-target}"
export CARGO_TERM_COLOR=never
export CARGO_INCREMENTAL=0
VERSION="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
# The commit is stamped by build.rs from Git; a source archive without Git may set HEXFRONT_COMMIT.
DIST="${HEXFRONT_DIST:-$CARGO_TARGET_DIR/dist}"
mkdir -p "$DIST"

step() { printf '\n== %s (%s)\n' "$1" "$(date +%T)"; }

# Prints a file's size in MiB with one decimal.
size_mib() { python3 -c 'import os,sys; print(f"{os.path.getsize(sys.argv[1]) / 1048576:.1f} MiB")' "$1"; }

# Installs Debian packages that are missing (by the command they provide); returns non-zero when
# apt cannot install them, so the caller can say why it stops.
need_packages() {
  local missing=() pair cmd pkg
  for pair in "$@"; do
    cmd="${pair%%=*}"; pkg="${pair#*=}"
    command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing ${missing[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } || return 1
}

# The files every bundle carries beside the program: the players' README, the scenarios and the
# rulesets as readable RON (the program has them built in; these are for reading and copying).
stage_common() {
  local into="$1"
  mkdir -p "$into/scenarios" "$into/rulesets"
  cp packaging/README-players.md "$into/README.txt"
  cp scenarios/*.ron "$into/scenarios/"
  cp assets/rulesets/*.ron "$into/rulesets/"
}
