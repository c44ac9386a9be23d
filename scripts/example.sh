#!/usr/bin/env bash
# Builds and runs one example of examples/ (package org.pagecache.examples):
#   scripts/example.sh SlowPageExample [memcached servers]
#   scripts/example.sh WeightedClusterExample 127.0.0.1:11211:1,127.0.0.1:11212:1,127.0.0.1:11213:2
# Examples: SlowPageExample PoliciesAndTagsExample CmsWebhookExample CountersExample WeightedClusterExample.
# They need memcached running (default 127.0.0.1:11211; the cluster example three servers).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
name=${1:?usage: scripts/example.sh EXAMPLE [args]; EXAMPLE is one of SlowPageExample PoliciesAndTagsExample CmsWebhookExample CountersExample WeightedClusterExample}
shift
quiet_build target/example-build.log mvn -B -q -DskipTests -pl examples -am package dependency:build-classpath \
  -Dmdep.includeScope=runtime -Dmdep.outputFile=target/example.classpath
exec java -Dkryo.unsafe=false -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "examples/target/classes:$(cat examples/target/example.classpath)" "org.pagecache.examples.$name" "$@"
