package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.pagecache.testing.MutableClock;

class OutageLogTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final List<String> lines = new ArrayList<>();

  /** A logger that keeps "level message-pattern args" of each line. */
  private Logger recordingLogger() {
    return (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(), new Class<?>[] {Logger.class},
        (proxy, method, args) -> {
          if (List.of("warn", "info", "error").contains(method.getName())) {
            lines.add(method.getName() + " " + Arrays.deepToString(args));
          }
          return method.getReturnType() == boolean.class ? true : null;
        });
  }

  @Test
  void oneLineWhenMemcachedGoesAwayAndOneWhenItIsBack() {
    OutageLog log = new OutageLog(recordingLogger(), "memcached for counters", clock);

    for (int i = 0; i < 1000; i++) {
      log.failed("showing last known values", new StoreException("connection refused"));
    }
    clock.advance(Duration.ofSeconds(12));
    for (int i = 0; i < 1000; i++) {
      log.succeeded();
    }

    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("warn"), lines.get(0));
    assertTrue(lines.get(0).contains("StoreException: connection refused"), lines.get(0));
    assertTrue(lines.get(1).startsWith("info") && lines.get(1).contains("12000"), lines.get(1));
  }

  @Test
  void nothingIsLoggedWhileAllIsWell() {
    OutageLog log = new OutageLog(recordingLogger(), "memcached for counters", clock);

    log.succeeded();

    assertEquals(List.of(), lines);
  }
}
