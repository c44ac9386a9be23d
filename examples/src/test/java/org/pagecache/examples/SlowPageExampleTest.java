package org.pagecache.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

class SlowPageExampleTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @Test
  void theFirstRequestWaitsForTheHandlerAndTheOthersComeFromMemcached() throws Exception {
    Output out = new Output();

    List<Fetched> fetched = SlowPageExample.run(memcached.servers(), 3, out.stream);

    assertEquals(List.of("MISS", "HIT", "HIT"), fetched.stream().map(Fetched::xCache).toList());
    assertTrue(fetched.get(0).millis() >= 300, "the miss waited for the 300 ms handler");
    assertEquals(fetched.get(0).body(), fetched.get(2).body(), "the hits are the page the miss built");
    assertTrue(out.text().contains("the handler ran 1 time for 3 requests"), out.text());
  }
}
