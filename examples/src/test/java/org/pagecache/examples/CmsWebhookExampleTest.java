package org.pagecache.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

class CmsWebhookExampleTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @Test
  void eachWebhookRebuildsOnlyThePagesItConcerns() throws Exception {
    List<Fetched> fetched = CmsWebhookExample.run(memcached.servers(), new Output().stream);

    assertEquals(List.of(
        "GET /article/7 HIT", "GET /article/8 HIT", "GET /section/sport HIT",
        "POST /cms-webhook/article/7 200", "GET /article/7 MISS", "GET /article/8 HIT", "GET /section/sport MISS",
        "POST /cms-webhook/handler/article 200", "GET /article/7 MISS", "GET /article/8 MISS", "GET /section/sport HIT",
        "POST /cms-webhook/handler/section 403", "GET /section/sport HIT"),
        fetched.stream().map(f -> f.method() + " " + f.path() + " " + (f.method().equals("GET") ? f.xCache() : f.status())).toList());
  }
}
