package org.pagecache.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.pagecache.store.MemcachedStore.Settings;

class MemcachedStoreSettingsTest {
  @Test
  void defaultsAreTextProtocolShortTimeoutsAndOneConnection() {
    Settings settings = Settings.defaults("127.0.0.1:11211");

    assertFalse(settings.binary());
    assertEquals(Duration.ofSeconds(1), settings.connectTimeout());
    assertEquals(Duration.ofMillis(200), settings.opTimeout());
    assertEquals(1, settings.poolSize());
  }

  @Test
  void aBadServerListFailsWhenTheSettingsAreMade() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Settings.defaults("localhost:abc"));

    assertTrue(e.getMessage().startsWith("memcached.servers: 'localhost:abc'"), e.getMessage());
  }

  @Test
  void timeoutsMustBePositiveAndThePoolNotEmpty() {
    String servers = "127.0.0.1:11211";
    Duration second = Duration.ofSeconds(1);

    assertMessageStartsWith("memcached.connect.timeout: ",
        () -> new Settings(servers, false, Duration.ZERO, second, 1));
    assertMessageStartsWith("memcached.op.timeout: ",
        () -> new Settings(servers, false, second, Duration.ofMillis(-1), 1));
    assertMessageStartsWith("memcached.op.timeout: ", () -> new Settings(servers, false, second, null, 1));
    assertMessageStartsWith("memcached.pool.size: ", () -> new Settings(servers, false, second, second, 0));
  }

  private static void assertMessageStartsWith(String prefix, Runnable make) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, make::run);
    assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
  }
}
