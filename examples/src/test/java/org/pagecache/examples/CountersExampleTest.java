package org.pagecache.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

class CountersExampleTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @Test
  void concurrentViewsFromTwoFrontendsAreCountedOnceEachAndReachTheDatabaseInFewWrites() throws Exception {
    CountersExample.Result result = CountersExample.run(memcached.servers(), 1000, new Output().stream);

    assertEquals(2000, result.liveCount(), "1000 from the database + 1000 views, none lost, none twice");
    assertEquals(2000, result.databaseCount());
    assertTrue(result.flushes() <= 2, "one write per frontend, not one per view: " + result.flushes());
    assertEquals(2, result.online(), "alice twice and bob: two visitors");
  }
}
