#!/usr/bin/env bash
# Runs the whole test suite on a fresh Debian-like machine: installs memcached when missing
# (the tests start their own memcached processes on free ports), then mvn -B verify.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

if ! ensure_package memcached memcached; then
  echo "memcached is missing and could not be installed (run as root or with sudo): apt-get install memcached" >&2
  exit 1
fi
# The memcached package starts a system service on 11211; the tests do not use it.

exec mvn -B verify "$@"
