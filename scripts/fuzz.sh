#!/usr/bin/env bash
# Runs every fuzz target (func FuzzXxx in a _test.go file) for a while,
# one after another. Their seed corpora already run in every `go test`;
# this explores past them.
#
#   scripts/fuzz.sh [package patterns, default ./...]
#
#   FUZZTIME          how long each target runs (default 30s; 1000x: runs)
#   FUZZMINIMIZETIME  how long a new input is minimised (default 0: not at
#                     all; a short run spends its time exploring instead.
#                     A crasher is written whole; rerun with e.g. 30s to
#                     have it minimised)
#   FUZZPARALLEL      fuzzing processes per target (default: one per CPU)
#
# A target that fails writes its input to the package's testdata/fuzz/
# FuzzXxx/; fix the code and commit the file, and it stays a regression
# seed. The script carries on with the other targets and fails at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}"

fuzztime="${FUZZTIME:-30s}"
minimize="${FUZZMINIMIZETIME:-0}"
parallel=()
if [ -n "${FUZZPARALLEL:-}" ]; then
  parallel=(-parallel "$FUZZPARALLEL")
fi
patterns=("$@")
if [ "${#patterns[@]}" -eq 0 ]; then
  patterns=(./...)
fi

# go test -list prints a package's matching names, then "ok  <package>".
targets=()
names=()
while IFS= read -r line; do
  case "$line" in
  Fuzz*) names+=("$line") ;;
  ok*)
    pkg="$(awk '{print $2}' <<<"$line")"
    for n in "${names[@]}"; do
      targets+=("$pkg $n")
    done
    names=()
    ;;
  *) names=() ;;
  esac
done < <(go test -list '^Fuzz' "${patterns[@]}")

if [ "${#targets[@]}" -eq 0 ]; then
  echo "sztab: no fuzz targets in ${patterns[*]}" >&2
  exit 1
fi
echo "sztab: ${#targets[@]} fuzz targets, $fuzztime each"

# Go 1.26's fuzzing coordinator can fail a run that found nothing with a
# bare "context deadline exceeded" as -fuzztime ends (a race between its
# deadline and the workers: https://go.dev/issue/75804, fixed in Go 1.27).
# Such a run, with no new input written under testdata/fuzz, is not
# counted as a failure.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
failed=()
raced=0
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  corpus="$(go list -f '{{.Dir}}' "$pkg")/testdata/fuzz/$name"
  before="$(ls "$corpus" 2>/dev/null || true)"
  echo "sztab: fuzzing $pkg $name for $fuzztime"
  if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" "${parallel[@]}" "$pkg" 2>&1 | tee "$log"; then
    continue
  fi
  after="$(ls "$corpus" 2>/dev/null || true)"
  if [ "$before" = "$after" ] && [ "$(grep -c '^    ' "$log")" -eq 1 ] && grep -q '^    context deadline exceeded$' "$log"; then
    echo "sztab: $name: Go's fuzzing deadline race (go.dev/issue/75804), no failing input; not counted"
    raced=$((raced + 1))
    continue
  fi
  failed+=("$pkg $name")
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "sztab: ${#failed[@]} of ${#targets[@]} fuzz targets failed:" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "sztab: ${#targets[@]} fuzz targets ran $fuzztime each without a failure ($raced ended in Go's deadline race)"
