#!/usr/bin/env bash
# Runs Hexfront's fuzz targets (cargo-fuzz, libFuzzer) for a given time each, with corpora seeded
# from the shipped scenarios, rulesets, combat cases and saves.
#
#   fuzz/run.sh [SECONDS] [TARGET...]     default: 600 seconds, every target
#
# Needs a nightly toolchain (libFuzzer's sanitizer flags); installs cargo-fuzz when missing. A crash
# is kept in fuzz/artifacts/TARGET/; reproduce it with `cargo +nightly fuzz run TARGET FILE`.
# Prints one line per target: runs, runs per second, corpus size, and crashes found.
set -euo pipefail
cd "$(dirname "$0")"

seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scenario ruleset combat_case save structured_case structured_game net_message)

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "fuzz/run.sh: no nightly toolchain here (libFuzzer needs one): install it with 'rustup toolchain install nightly'." >&2
  exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz/run.sh: installing cargo-fuzz (cargo install cargo-fuzz --locked)"
  cargo install cargo-fuzz --locked
fi

# Seed corpora: every shipped file of the kind the target reads (kept out of git: corpus/ is
# ignored, the seeds are the repository's own files).
seed() {
  local target="$1"; shift
  mkdir -p "corpus/$target"
  for f in "$@"; do cp -n "$f" "corpus/$target/" 2>/dev/null || true; done
}
seed scenario ../scenarios/*.ron ../tests/fixtures/*.ron
seed ruleset ../assets/rulesets/*.ron
seed combat_case ../tests/cases/*.ron
seed save ../tests/fixtures/smolensk-game.ron ../tests/fixtures/mortain-combat-phase.ron
seed net_message seeds/net_message/*.json
mkdir -p corpus/structured_case corpus/structured_game

export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$HOME/.cache/hexfront-fuzz-target}"
cargo +nightly fuzz build -O
printf '%-16s %10s %8s %7s %s\n' target runs runs/s corpus crashes
for t in "${targets[@]}"; do
  log="$(mktemp)"
  status=0
  cargo +nightly fuzz run -O "$t" "corpus/$t" -- -max_total_time="$seconds" -max_len=65536 \
    -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 >"$log" 2>&1 || status=$?
  runs="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)"
  rate="$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)"
  corpus="$(ls "corpus/$t" | wc -l)"
  crashes="$(ls "artifacts/$t" 2>/dev/null | wc -l)"
  printf '%-16s %10s %8s %7s %s\n' "$t" "$runs" "$rate" "$corpus" "$crashes"
  if [ "$status" -ne 0 ]; then
    echo "  $t stopped on a finding (exit $status); its log: $log" >&2
    grep -E 'panicked|ERROR|SUMMARY' "$log" | head -5 >&2 || true
  fi
done
