#!/usr/bin/env bash
# Runs every benchmark and regenerates the figures in BENCHMARKS.md (about 25 minutes on 2 cores, the long-tail and memcached-hit scenarios included).
# Loopback only: starts its own memcached processes on free ports and embedded Jetty servers.
#   1. builds the benchmarks module (benchmarks/src/main/java/org/pagecache/bench) and the filter it
#      measures, in the reactor (nothing is installed in ~/.m2)
#   2. JMH micro-benchmarks: PageCodec, the filter's hit path, key building
#   3. the load driver (MacroBench): throughput, refresh under load, stampede, scale-out
#   4. BenchmarksReport: rewrites the generated blocks of BENCHMARKS.md
#      (the proxies scenario starts nginx and Varnish itself, as foreground processes on free
#      loopback ports with their configuration in benchmarks/target/bench/proxies, and stops them)
# Raw output stays in benchmarks/target/bench (jmh.txt, jmh.json, macro.txt, one .md per scenario).
#   scripts/bench.sh longtail   runs only the long-tail scenario (issue 29: 50 000 pages of 8 KB, Zipf
#   and uniform, the limit, PageCache, nginx and Varnish; about 8 minutes) and rewrites only its block
#   of BENCHMARKS.md (output in benchmarks/target/bench-longtail).
#   scripts/bench.sh memhit     runs only the hit beyond the near cache against one memcached get (issue 38:
#   20 000 pages, uniform, near.size=0, clients without and with gzip; about 2 minutes) and rewrites only its block.
#   scripts/bench.sh fragments  runs only the fragments scenario (issue 30: a hit with two fragments against a
#   plain hit, a signed-in mix against pass-through; about 1 minute) and rewrites only its block
#   (output in benchmarks/target/bench-fragments).
#   scripts/bench.sh proxies    runs only the hot page and the Zipf set of 200 pages against the limit,
#   nginx and Varnish (the proxies block), e.g. to check the hot-page figures after a change.
#   scripts/bench.sh expiring   runs only the expiring-pages scenario (issue 36: 200 pages of 300 ms builds, ttl 2 s,
#   Zipf 0.99 over 32 keep-alive connections timed per request; PageCache, nginx with background update, Varnish
#   with grace; 3 interleaved rounds; about 4 minutes) and rewrites only its block.
#   scripts/bench.sh junkparams runs only the junk-parameter scenario (issue 47: 200 pages of 300 ms builds that do not
#   expire, Zipf 0.99 over 32 timed keep-alive connections, one request in five with a parameter no page reads;
#   PageCache params.key=read, without junk, params.key=all, nginx, Varnish; 3 interleaved rounds; about 5 minutes).
# Environment: JMH_ARGS (default "-f 1 -wi 3 -i 5 -w 1s -r 1s"), LOAD_CLIENTS (32), LOAD_SECONDS (10),
#   BENCH_QUICK=1: a check that everything runs (one short JMH iteration, 2 s load windows); its
#   figures mean nothing, so it writes benchmarks/target/bench/BENCHMARKS.quick.md, never BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

started=$(date +%s)
if ! ensure_package memcached memcached; then
  echo "memcached is missing and could not be installed (run as root or with sudo): apt-get install memcached" >&2
  exit 1
fi
MEMCACHED=$(command -v memcached || echo /usr/bin/memcached)
# The proxies PageCache is compared with, and the load generator that measures every row of that
# comparison (Debian's packages; only their binaries are used, never their system services).
for tool in "wrk wrk" "nginx nginx" "varnishd varnish"; do
  # shellcheck disable=SC2086 # "binary package"
  if ! ensure_package $tool; then
    echo "${tool% *} is missing and could not be installed (run as root or with sudo): apt-get install ${tool#* }" >&2
    exit 1
  fi
done
WRK=$(command -v wrk || echo /usr/bin/wrk)
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
VARNISHD=$(command -v varnishd || echo /usr/sbin/varnishd)
export WRK NGINX VARNISHD

OUT=benchmarks/target/bench
ONLY=""
case "${1:-}" in
  longtail|memhit|fragments|proxies|expiring|junkparams) ONLY=$1; OUT=benchmarks/target/bench-$1 ;;
  "") ;;
  *) echo "scripts/bench.sh: unknown scenario '$1'; use no argument (everything), longtail, memhit, fragments, proxies, expiring or junkparams" >&2; exit 2 ;;
esac
REPORT=BENCHMARKS.md
if [ "${BENCH_QUICK:-}" = 1 ]; then
  JMH_ARGS=${JMH_ARGS:--f 1 -wi 1 -i 1 -w 1s -r 1s}
  LOAD_SECONDS=${LOAD_SECONDS:-2}
else
  JMH_ARGS=${JMH_ARGS:--f 1 -wi 3 -i 5 -w 1s -r 1s}
fi
LOAD_CLIENTS=${LOAD_CLIENTS:-32}
LOAD_SECONDS=${LOAD_SECONDS:-10}
# Jetty's start/stop lines and xmemcached's stack trace per failed reconnect (the outage scenario
# causes many) would drown the figures; PageCache's own one-line outage logs are warnings and stay.
JVM_ARGS="-Dkryo.unsafe=false -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.net.rubyeye=off -Dorg.slf4j.simpleLogger.log.com.google.code.yanf4j=off"

echo "==> building the benchmarks (and the filter jar and its test harness jar) with the JMH stubs"
# package, in the reactor: the benchmarks use the filter's test-jar, which exists only once packaged;
# the class path then names the reactor's jars (filter/target/*.jar), never a stale ~/.m2 snapshot.
mvn -B -q -pl benchmarks -am package -DskipTests -Dmaven.source.skip -Dmaven.javadoc.skip \
  dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/bench.classpath >/dev/null
CP="benchmarks/target/classes:$(cat benchmarks/target/bench.classpath)"
rm -rf "$OUT"
mkdir -p "$OUT"

{
  echo "CPU:       $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "memory:    $(free -m | awk '/^Mem:/ {print $2 " MB"}')"
  echo "kernel:    $(uname -sr)"
  echo "java:      $(java -version 2>&1 | tr '\n' ' ' | sed 's/ *$//')"
  echo "memcached: $("$MEMCACHED" -V)"
  echo "load average at start (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/machine.txt"
cat "$OUT/machine.txt"

if [ -n "$ONLY" ]; then
  ONLY_COMMAND="java $JVM_ARGS -cp \$CP org.pagecache.bench.MacroBench $OUT $LOAD_CLIENTS $LOAD_SECONDS $ONLY"
  echo "==> load: $ONLY_COMMAND"
  # shellcheck disable=SC2086
  java $JVM_ARGS -cp "$CP" org.pagecache.bench.MacroBench "$OUT" "$LOAD_CLIENTS" "$LOAD_SECONDS" "$ONLY" | tee "$OUT/macro.txt"
  elapsed=$(( $(date +%s) - started ))
  {
    echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC')   (took $((elapsed / 60)) min $((elapsed % 60)) s, build included)"
    echo "command:  scripts/bench.sh $ONLY  ->  $ONLY_COMMAND"
    echo "load average at start, at end (1, 5, 15 min): $(grep 'load average' "$OUT/machine.txt" | sed 's/.*: //'), $(cut -d' ' -f1-3 /proc/loadavg)"
  } > "$OUT/run.txt"
  { echo '```'; cat "$OUT/run.txt" "$OUT/machine.txt"; echo '```'; echo; cat "$OUT/$ONLY.md"; } > "$OUT/$ONLY.md.tmp"
  mv "$OUT/$ONLY.md.tmp" "$OUT/$ONLY.md"
  if [ "${BENCH_QUICK:-}" = 1 ]; then
    REPORT=$OUT/BENCHMARKS.quick.md
    cp BENCHMARKS.md "$REPORT"
  fi
  java $JVM_ARGS -cp "$CP" org.pagecache.bench.BenchmarksReport "$REPORT" "$OUT" "$ONLY"
  echo "==> done in $((elapsed / 60)) min $((elapsed % 60)) s; the $ONLY block of $REPORT regenerated"
  exit 0
fi

JMH_COMMAND="java -cp \$CP org.openjdk.jmh.Main $JMH_ARGS -jvmArgsAppend \"$JVM_ARGS\" -rf json -rff $OUT/jmh.json 'org\\.pagecache\\.bench\\..*Benchmark'"
echo "==> JMH: $JMH_COMMAND"
# shellcheck disable=SC2086 # JMH_ARGS is a list of options
# The JMH process only orchestrates; the forks measure, and get JVM_ARGS through -jvmArgsAppend.
java -cp "$CP" org.openjdk.jmh.Main $JMH_ARGS -jvmArgsAppend "$JVM_ARGS" \
  -rf json -rff "$OUT/jmh.json" 'org\.pagecache\.bench\..*Benchmark' | tee "$OUT/jmh.txt"

MACRO_COMMAND="java $JVM_ARGS -cp \$CP org.pagecache.bench.MacroBench $OUT $LOAD_CLIENTS $LOAD_SECONDS"
echo "==> load: $MACRO_COMMAND"
# shellcheck disable=SC2086
java $JVM_ARGS -cp "$CP" org.pagecache.bench.MacroBench "$OUT" "$LOAD_CLIENTS" "$LOAD_SECONDS" | tee "$OUT/macro.txt"

elapsed=$(( $(date +%s) - started ))
{
  echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "command:  scripts/bench.sh   (took $((elapsed / 60)) min $((elapsed % 60)) s, build included)"
  echo "JMH:      $JMH_COMMAND"
  echo "load:     $MACRO_COMMAND"
  echo "CP:       benchmarks/target/classes + mvn -pl benchmarks -am package dependency:build-classpath -Dmdep.includeScope=runtime"
  echo "load average at end (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/run.txt"
if [ "${BENCH_QUICK:-}" = 1 ]; then
  REPORT=$OUT/BENCHMARKS.quick.md
  cp BENCHMARKS.md "$REPORT"
fi
java $JVM_ARGS -cp "$CP" org.pagecache.bench.BenchmarksReport "$REPORT" "$OUT"
echo "==> done in $((elapsed / 60)) min $((elapsed % 60)) s; $REPORT regenerated (git diff $REPORT)"
