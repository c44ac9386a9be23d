#!/usr/bin/env bash
# Runs the public HTTP caching test suite (http-tests/cache-tests) against PageCache as a gateway
# (benchmarks/src/main/java/org/pagecache/bench/CacheTestsGateway: the filter in front of a servlet
# forwarding to the suite's origin server, with a real memcached) and prints the required tests
# passed, each judged on its own, per mode: the default policy and cache-control=honor.
#   CACHE_TESTS_DIR  a checkout of http-tests/cache-tests with `npm i --omit=dev` done (default /tmp/cache-tests)
#   RUNS             runs per mode (default 1); FAILED=1 lists the failed tests
# Loopback only; the origin and the gateways run on free ports and are stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

SUITE=${CACHE_TESTS_DIR:-/tmp/cache-tests}
RUNS=${RUNS:-1}
OUT=benchmarks/target/cache-tests
if [ ! -f "$SUITE/tests/index.mjs" ] || [ ! -d "$SUITE/node_modules" ]; then
  echo "no cache-tests suite in $SUITE: clone https://github.com/http-tests/cache-tests there and run npm i --omit=dev" >&2
  exit 1
fi
mkdir -p "$OUT"
ABS_OUT=$(cd "$OUT" && pwd)
echo "==> building the benchmarks module (the gateway) and the filter, in the reactor"
quiet_build "$OUT/build.log" mvn -B -q -pl benchmarks -am package -DskipTests -Dmaven.source.skip -Dmaven.javadoc.skip \
  dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/bench.classpath
CP="benchmarks/target/classes:$(cat benchmarks/target/bench.classpath)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

ORIGIN_PORT=$(free_port)
(cd "$SUITE" && npm_config_protocol=http npm_config_port="$ORIGIN_PORT" npm_config_pidfile="$ABS_OUT/origin.pid" \
  exec node test-engine/server/server.mjs) >"$OUT/origin.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q Listening "$OUT/origin.log" 2>/dev/null && break; sleep 0.1; done

run_mode() { # NAME POLICIES RUN
  local name=$1 policies=$2 run=$3 fifo="$OUT/$1.stdin"
  rm -f "$fifo"; mkfifo "$fifo"
  java -Dkryo.unsafe=false -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$CP" \
    org.pagecache.bench.CacheTestsGateway "http://127.0.0.1:$ORIGIN_PORT" "$policies" \
    <"$fifo" >"$OUT/$name.gateway.log" 2>&1 &
  local gw=$!
  exec 9>"$fifo"
  local base=""
  for _ in $(seq 1 300); do
    base=$(sed -n 's/^listening //p' "$OUT/$name.gateway.log" 2>/dev/null || true)
    [ -n "$base" ] && break
    sleep 0.1
  done
  if [ -z "$base" ]; then echo "gateway did not start: $OUT/$name.gateway.log" >&2; exec 9>&-; return 1; fi
  (cd "$SUITE" && npm_config_base="${base%/}" npm_config_id="" npm_package_config_id="" \
    node --no-warnings test-engine/cli.mjs) >"$OUT/$name.$run.json"
  exec 9>&-
  wait "$gw" || true
  printf '%-10s run %s: ' "$name" "$run"
  node scripts/cache-tests/count.mjs "$SUITE" "$OUT/$name.$run.json" ${FAILED:+--failed}
}

echo "required tests passed (each judged on its own), suite $(git -C "$SUITE" rev-parse --short HEAD 2>/dev/null || echo snapshot):"
for run in $(seq 1 "$RUNS"); do
  run_mode default "" "$run"
  run_mode honor "default: cache-control=honor" "$run"
done
