#!/usr/bin/env bash
# Regenerates the built-in cookie ignore list, filter/src/main/resources/org/pagecache/ignored-cookies.txt,
# from the copy of the Open Cookie Database in filter/src/test/resources/open-cookie-database/ and the
# choice written in DerivedCookieList (filter test sources), then runs the tests that check it
# (in step, coverage of at least 80 %, no cookie an application reads). Review the diff before
# committing. To update the data set, replace its CSV first (docs/safety.md, "The ignore list").
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
quiet_build target/ignored-cookies-build.log mvn -B -q -pl filter -am test-compile
java -cp filter/target/test-classes:filter/target/classes org.pagecache.internal.key.DerivedCookieList
exec mvn -B -q -pl filter -am test -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtest='DerivedCookieListTest,CookiesApplicationsReadTest,IgnoredCookiesTest'
