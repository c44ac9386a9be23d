#!/usr/bin/env bash
# Runs test classes again and again, to find the ones that fail now and then (issue 43).
#   scripts/repeat-tests.sh CLASSES [RUNS] [--busy|--busy=all] [--module M]
# CLASSES: comma-separated class names or surefire patterns ('FaultTest*,FaultSoakTest'); names
#   ending in IT run through failsafe, the module packaged first with what it needs (about 30 s more
#   per run). RUNS: how many times, default 10. --busy: every second run with one core kept busy
#   beside it (a shared CI machine); --busy=all: every run. --module: the Maven module the classes
#   are in, default filter.
# One run is one Maven invocation of all the classes (a fresh JVM, as the suite runs them), against
# what was last compiled (test-compile runs once first). Prints the classes that failed in each run
# and the failures per class at the end; the reports and output of each failed run are kept (the
# directory is named at the end). Exit status 1 when any run failed.
set -uo pipefail
cd "$(dirname "$0")/.."

classes="" runs=10 runs_given=no busy=none module=filter
while [ $# -gt 0 ]; do
  case "$1" in
    --busy) busy=half ;;
    --busy=all) busy=all ;;
    --module) module=$2; shift ;;
    --module=*) module=${1#--module=} ;;
    -*) echo "unknown option $1 (accepted: --busy, --busy=all, --module M)" >&2; exit 2 ;;
    *) if [ -z "$classes" ]; then classes=$1
       elif [ "$runs_given" = no ]; then runs=$1; runs_given=yes
       else echo "one CLASSES and one RUNS at most; unexpected: $1" >&2; exit 2
       fi ;;
  esac
  shift
done
if [ -z "$classes" ] || ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/repeat-tests.sh CLASSES [RUNS] [--busy|--busy=all] [--module M]" >&2
  exit 2
fi

unit="" its=""
IFS=',' read -ra names <<<"$classes"
for name in "${names[@]}"; do
  if [[ "$name" == *IT ]]; then its+="${its:+,}$name"; else unit+="${unit:+,}$name"; fi
done

out=$(mktemp -d /tmp/repeat-tests-XXXXXX)
if ! mvn -B -q -pl "$module" -am test-compile -DskipTests >"$out/compile.log" 2>&1; then
  echo "test-compile failed: $out/compile.log" >&2
  tail -n 30 "$out/compile.log" >&2
  exit 1
fi

hog=""
stop_hog() {
  if [ -n "$hog" ]; then kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null; hog=""; fi
}
trap stop_hog EXIT

# failed_classes DIR: the classes whose report in DIR counts a failure or an error.
failed_classes() {
  grep -l -E '<testsuite [^>]*(failures="[1-9]|errors="[1-9])' "$1"/TEST-*.xml 2>/dev/null \
    | sed -E 's#.*/TEST-(.*)\.xml#\1#'
}

declare -A failed
ran=()
for ((run = 1; run <= runs; run++)); do
  loaded=no
  if [ "$busy" = all ] || { [ "$busy" = half ] && [ $((run % 2)) = 0 ]; }; then
    loaded=yes
    timeout 7200 sh -c 'while :; do :; done' & # one core busy, bounded in time, stopped after the run
    hog=$!
  fi
  started=$(date +%s)
  status=0
  rm -rf "$module/target/surefire-reports" "$module/target/failsafe-reports"
  if [ -n "$unit" ]; then
    mvn -B -o -pl "$module" surefire:test -Dtest="$unit" -Dsurefire.failIfNoSpecifiedTests=false \
      >"$out/run$run.log" 2>&1 || status=1
  fi
  if [ -n "$its" ]; then
    # Through verify with -am: the WAR and the modules it needs are packaged from the reactor (nothing
    # is installed in ~/.m2); no other test runs.
    mvn -B -o -pl "$module" -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dit.test="$its" \
      -Dfailsafe.failIfNoSpecifiedTests=false >>"$out/run$run.log" 2>&1 || status=1
  fi
  stop_hog
  seconds=$(($(date +%s) - started))
  bad=$( { failed_classes "$module/target/surefire-reports"; failed_classes "$module/target/failsafe-reports"; } | sort -u)
  for report in "$module"/target/surefire-reports/TEST-*.xml "$module"/target/failsafe-reports/TEST-*.xml; do
    [ -f "$report" ] || continue
    c=$(basename "$report" .xml); c=${c#TEST-}
    [[ " ${ran[*]} " == *" $c "* ]] || ran+=("$c")
  done
  if [ $status = 0 ] && [ -z "$bad" ]; then
    echo "run $run/$runs busy=$loaded: ok (${seconds} s)"
    rm -f "$out/run$run.log"
  else
    mkdir -p "$out/run$run"
    cp -r "$module"/target/surefire-reports "$module"/target/failsafe-reports "$out/run$run/" 2>/dev/null
    echo "run $run/$runs busy=$loaded: FAILED (${seconds} s): ${bad:-the build itself} ($out/run$run.log)"
    for c in $bad; do failed[$c]=$((${failed[$c]:-0} + 1)); done
    [ -n "$bad" ] || failed[build]=$((${failed[build]:-0} + 1))
  fi
done

echo "failures per class, of $runs runs (busy: $busy):"
any=0
for c in "${ran[@]}" ${failed[build]:+build}; do
  echo "  $c: ${failed[$c]:-0}"
  [ "${failed[$c]:-0}" = 0 ] || any=1
done
echo "output of failed runs: $out"
exit $any
