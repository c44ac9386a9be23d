package org.pagecache.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

class PoliciesAndTagsExampleTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @Test
  void aTagRebuildsThePagesShowingTheArticleAndEachHandlerKeepsItsOwnTtl() throws Exception {
    List<Fetched> fetched = PoliciesAndTagsExample.run(memcached.servers(), new Output().stream);

    assertEquals(List.of(
        "/article/1 MISS", "/article/2 MISS", "/front MISS", "/article/1 HIT", "/article/2 HIT", "/front HIT",
        "/article/1 STALE", "/front STALE", "/article/2 HIT",
        "/article/1 HIT", "/front HIT",
        "/front STALE", "/article/2 HIT"),
        fetched.stream().map(f -> f.path() + " " + f.xCache()).toList());
    assertFalse(fetched.get(6).body().contains("floating library"), "the previous page, at once");
    assertTrue(fetched.get(9).body().contains("floating library"), "the article shows the new title once rebuilt");
    assertTrue(fetched.get(10).body().contains("floating library"), "so does the front page");
  }
}
