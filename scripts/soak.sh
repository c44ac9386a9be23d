#!/usr/bin/env bash
# The mixed-faults soak of issue 27, as long as you like (CI runs it for 30 s in FaultSoakTest).
#   scripts/soak.sh [SECONDS] [SEED]     default 120 s, seed 27
# Two PageCache frontends in child JVMs, three memcached nodes and a gutter (started on free
# loopback ports), readers on 100 pages, an editor refreshing about every 2 s, and one fault at a
# time chosen by the seed: a node hung (SIGSTOP) 2-5 s, a node killed and restarted empty, a
# frontend killed -9 and restarted. Prints one line: reads, violations of the documented bound
# (near.trust + retry.interval), refreshes refused, errors from live frontends, backend share
# outside the second after a refresh, and the faults made; fails if any read broke the bound.
# The frontends' own logs are kept in a directory under /tmp (named at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
seed=${2:-27}
log=$(mktemp /tmp/soak-XXXXXX.log)
logs=$(mktemp -d /tmp/soak-frontends-XXXXXX)
status=0
mvn -B -q -pl filter test -Dtest='FaultSoakTest#underMixedFaultsNoReadBreaksTheDocumentedBound' \
  -Dsurefire.failIfNoSpecifiedTests=false -Dsoak.seconds="$seconds" -Dsoak.seed="$seed" -Dsoak.logs="$logs" \
  > "$log" 2>&1 || status=$?
grep -E '^soak:|violation|Tests run:|FAIL' "$log" || true
echo "full output: $log; the frontends' logs: $logs"
exit "$status"
