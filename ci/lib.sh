# Shared by the ci/ scripts: repository root, parallelism, and a ctest runner that keeps the counts.
set -euo pipefail
TRNSCI_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TRNSCI_JOBS=${TRNSCI_JOBS:-$(nproc)}
export CTEST_OUTPUT_ON_FAILURE=1

# Runs ctest in build tree $1 (without the label adversarial; further ctest arguments after it) and adds its
# counts to TRNSCI_PASSED/TRNSCI_FAILED.
TRNSCI_PASSED=0
TRNSCI_FAILED=0
trnsci_ctest() {
  local dir=$1 log rc=0
  shift
  log=$(mktemp)
  # The adversarial layer's full case counts (ctest label adversarial) run in ci/adversarial, not here.
  ctest --test-dir "$dir" -j "$TRNSCI_JOBS" --timeout 1500 -LE '^adversarial$' "$@" | tee "$log" || rc=$?
  local total failed
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n1)
  failed=$(sed -n 's/.* \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -n1)
  rm -f "$log"
  if [[ -z "$total" ]]; then
    echo "ci: ctest in $dir reported no summary" >&2
    return 1
  fi
  TRNSCI_PASSED=$((TRNSCI_PASSED + total - failed))
  TRNSCI_FAILED=$((TRNSCI_FAILED + failed))
  return "$rc"
}

# Prints the pytest totals of the last ctest run in build tree $1: the python ctest entries each run one
# pytest file, whose "N passed, M failed ... in Xs" lines are in LastTest.log.
trnsci_pytest_count() {
  local log="$1/Testing/Temporary/LastTest.log"
  [[ -f "$log" ]] || { echo "no ctest log"; return 0; }
  awk '/^[0-9]+ (passed|failed|skipped|error)|^=+ [0-9]+ (passed|failed)/ {
         for (i = 1; i <= NF; ++i) {
           if ($(i) ~ /^passed/) p += $(i-1);
           if ($(i) ~ /^failed/) f += $(i-1);
           if ($(i) ~ /^skipped/) s += $(i-1);
         }
         files += 1
       }
       END { printf "%d passed, %d failed, %d skipped in %d pytest files\n", p, f, s, files }' "$log"
}
