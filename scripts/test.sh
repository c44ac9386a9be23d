#!/usr/bin/env bash
# Runs the whole test suite on a fresh Debian-like machine: installs what the tests need when
# missing (memcached: the tests start their own processes on free ports; nutcracker (twemproxy): the
# tests behind a memcached proxy start their own; chromium and chromium-driver: the admin page's
# browser test), then mvn -B verify.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

if ! ensure_package memcached memcached; then
  echo "memcached is missing and could not be installed (run as root or with sudo): apt-get install memcached" >&2
  exit 1
fi
# The memcached package starts a system service on 11211; the tests do not use it.
# Likewise nutcracker's package may start a service of its own; the tests start theirs on free ports.
if ! ensure_package nutcracker nutcracker; then
  echo "nutcracker (twemproxy) is missing and could not be installed: apt-get install nutcracker" >&2
  exit 1
fi
if ! ensure_package chromium chromium || ! ensure_package chromedriver chromium-driver; then
  echo "chromium/chromium-driver are missing and could not be installed: apt-get install chromium chromium-driver" >&2
  exit 1
fi

# -Prelease: the sources and javadoc jars Maven Central needs are built on every run (about 6 s per
# published module), so a javadoc error fails the tests too (docs/release.md).
exec mvn -B -Prelease verify "$@"
