#!/usr/bin/env bash
# Runs test classes again and again, to find the ones that fail now and then (issue 43).
#   scripts/repeat-tests.sh CLASSES [RUNS] [--busy|--busy=all] [--module M]
# CLASSES: comma-separated class names or surefire patterns ('FaultTest*,FaultSoakTest'); a name
#   ending in IT runs through failsafe (the module must have been built and packaged once: run
#   scripts/test.sh first). RUNS: runs per class, default 10. --busy: every second run with one core
#   kept busy beside it (a shared CI machine); --busy=all: every run. --module: the Maven module the
#   classes are in, default filter.
# Each class runs alone in a fresh JVM per run, in the order given, against what was last compiled
# (mvn test-compile runs once first). Prints one line per run and failures per class at the end;
# the output of every failed run is kept (the directory is named at the end). Exit status 1 when any
# run failed.
set -uo pipefail
cd "$(dirname "$0")/.."

classes="" runs=10 busy=none module=filter
while [ $# -gt 0 ]; do
  case "$1" in
    --busy) busy=half ;;
    --busy=all) busy=all ;;
    --module) module=$2; shift ;;
    --module=*) module=${1#--module=} ;;
    -*) echo "unknown option $1 (accepted: --busy, --busy=all, --module M)" >&2; exit 2 ;;
    *) if [ -z "$classes" ]; then classes=$1; else runs=$1; fi ;;
  esac
  shift
done
if [ -z "$classes" ] || ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/repeat-tests.sh CLASSES [RUNS] [--busy|--busy=all] [--module M]" >&2
  exit 2
fi

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
start_hog() {
  # One core busy for at most an hour: a loop that never sleeps, stopped after the run.
  timeout 3600 sh -c 'while :; do :; done' &
  hog=$!
}

declare -A failed
IFS=',' read -ra names <<<"$classes"
for ((run = 1; run <= runs; run++)); do
  loaded=no
  if [ "$busy" = all ] || { [ "$busy" = half ] && [ $((run % 2)) = 0 ]; }; then
    loaded=yes
  fi
  for name in "${names[@]}"; do
    [ "$loaded" = yes ] && start_hog
    log="$out/${name//[^A-Za-z0-9_]/_}-run$run.log"
    started=$(date +%s)
    if [[ "$name" == *IT ]]; then
      mvn -B -o -pl "$module" failsafe:integration-test failsafe:verify -Dit.test="$name" \
        -Dfailsafe.failIfNoSpecifiedTests=false >"$log" 2>&1
    else
      mvn -B -o -pl "$module" surefire:test -Dtest="$name" -Dsurefire.failIfNoSpecifiedTests=false >"$log" 2>&1
    fi
    status=$?
    stop_hog
    seconds=$(($(date +%s) - started))
    if [ $status = 0 ]; then
      echo "run $run/$runs ${name} busy=$loaded: ok (${seconds} s)"
      rm -f "$log"
    else
      failed[$name]=$((${failed[$name]:-0} + 1))
      echo "run $run/$runs ${name} busy=$loaded: FAILED (${seconds} s), $log"
      grep -E '^\[ERROR\] (Tests run|  [A-Za-z]|[A-Za-z].*(Error|Exception))' "$log" | head -n 5 | sed 's/^/    /'
    fi
  done
done

echo "failures per class, of $runs runs each (busy: $busy):"
any=0
for name in "${names[@]}"; do
  echo "  $name: ${failed[$name]:-0}"
  [ "${failed[$name]:-0}" = 0 ] || any=1
done
echo "logs of failed runs: $out"
exit $any
