#!/usr/bin/env bash
# Regenerates the built-in list of ignored query parameters,
# filter/src/main/resources/org/pagecache/ignored-parameters.txt, from the copy of tidy-url's rules in
# filter/src/test/resources/tidy-url/ and the choice written in DerivedParameterList (filter test
# sources), then runs the tests that check it. Review the diff before committing. To update the rules,
# replace rules.js first (docs/safety.md, "Tracking parameters").
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
quiet_build target/ignored-parameters-build.log mvn -B -q -pl filter -am test-compile
java -cp filter/target/test-classes:filter/target/classes org.pagecache.internal.key.DerivedParameterList
exec mvn -B -q -pl filter -am test -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtest='DerivedParameterListTest,IgnoredParametersTest'
