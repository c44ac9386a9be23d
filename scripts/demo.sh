#!/usr/bin/env bash
# Builds and runs the demo site on http://127.0.0.1:8080 (PORT=... to change). It listens on 127.0.0.1
# only, as its editor password and admin token are published: DEMO_HOST=0.0.0.0 opens it to others.
# Uses memcached on 127.0.0.1:11211: installs and starts it when it can; otherwise the demo runs on
# the in-process store and says so. PAGECACHE_MEMCACHED_SERVERS overrides all of this.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
PORT=${PORT:-8080}

memcached_up() { (exec 3<>/dev/tcp/127.0.0.1/11211) 2>/dev/null; }

if [ -z "${PAGECACHE_MEMCACHED_SERVERS+x}" ]; then
  if ! memcached_up; then
    if ensure_package memcached memcached; then
      start_memcached="memcached -d -l 127.0.0.1 -p 11211 -m 64 -u $(id -un)"
      if ! $start_memcached 2>/dev/null; then
        sudo=$([ "$(id -u)" = 0 ] || echo "sudo ")
        start_memcached="${sudo}memcached -d -l 127.0.0.1 -p 11211 -m 64 -u memcache"
        as_root memcached -d -l 127.0.0.1 -p 11211 -m 64 -u memcache || true
      fi
      for _ in $(seq 1 50); do memcached_up && break; sleep 0.1; done
      if memcached_up; then
        echo "==> started memcached in the background (-d): it keeps running after the demo stops"
        stop_memcached="${sudo:-}pkill -x memcached"
        echo "    tour step 5: stop it with '$stop_memcached', start it again with '$start_memcached'"
      fi
    fi
  fi
  if memcached_up; then
    export PAGECACHE_MEMCACHED_SERVERS=127.0.0.1:11211
    echo "==> using memcached on 127.0.0.1:11211"
  else
    export PAGECACHE_MEMCACHED_SERVERS=
    echo "==> memcached is not available: the demo uses the in-process store (single JVM only)"
  fi
fi
export PAGECACHE_ADMIN_TOKEN=${PAGECACHE_ADMIN_TOKEN:-demo-token}

# One reactor build: the WAR, DemoServer, and DemoServer's class path (which names the freshly built
# filter jars, so nothing needs installing into ~/.m2 first).
echo "==> building the demo (log: target/demo-build.log; the first build downloads dependencies, a few minutes)"
quiet_build target/demo-build.log mvn -B -q -DskipTests -pl webapp-demo -am package dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/demo.classpath
echo "==> admin token: $PAGECACHE_ADMIN_TOKEN  walk-through: docs/demo.md  (the site's URL follows once it listens)"
exec java -Dkryo.unsafe=false -cp "webapp-demo/target/test-classes:$(cat webapp-demo/target/demo.classpath)" \
  org.pagecache.demo.DemoServer "$PORT" webapp-demo/target/pagecache-demo.war
