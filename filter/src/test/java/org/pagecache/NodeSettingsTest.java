package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The settings of issue 18 ({@code memcached.gutter}, {@code gutter.ttl}, {@code memcached.pools},
 * policy key {@code pool}) fail at start-up naming the setting, the value and what is accepted.
 */
class NodeSettingsTest {
  private static PageCacheConfig.Builder config() {
    return PageCacheConfig.builder().ignoreEnvironment().set("memcached.servers", "127.0.0.1:21001,127.0.0.1:21002");
  }

  private static String error(PageCacheConfig.Builder b) {
    return assertThrows(IllegalArgumentException.class, b::build).getMessage();
  }

  @Test
  void aGutterNodeThatIsAlsoAClusterNodeIsRefused() {
    String message = error(config().set("memcached.gutter", "127.0.0.1:21002"));
    assertTrue(message.contains("memcached.gutter: '127.0.0.1:21002' is also in memcached.servers"), message);
  }

  @Test
  void aGutterWithoutAClusterIsRefused() {
    String message = error(PageCacheConfig.builder().ignoreEnvironment().set("memcached.gutter", "127.0.0.1:21003"));
    assertTrue(message.contains("memcached.gutter: '127.0.0.1:21003' needs memcached.servers"), message);
  }

  @Test
  void aGutterTtlMustBeAPositiveDuration() {
    String message = error(config().set("gutter.ttl", "soon"));
    assertTrue(message.contains("gutter.ttl"), message);
  }

  @Test
  void aPolicyNamingAnUndefinedPoolIsRefusedWithTheDefinedOnes() {
    String message = error(config().set("memcached.pools", "big=127.0.0.1:21004")
        .set("policies", "archive: pool=huge"));
    assertTrue(message.contains("policies[archive].pool: 'huge' is not a pool of memcached.pools (defined: big)"), message);
  }

  @Test
  void aServerInTwoPoolsIsRefused() {
    String message = error(config().set("memcached.pools", "big=127.0.0.1:21004; media=127.0.0.1:21004"));
    assertTrue(message.contains("'127.0.0.1:21004' is in memcached.pools[big] and in memcached.pools[media]"), message);
    message = error(config().set("memcached.pools", "big=127.0.0.1:21001"));
    assertTrue(message.contains("'127.0.0.1:21001' is in memcached.servers and in memcached.pools[big]"), message);
  }

  @Test
  void aPoolEntryWithoutANameIsRefusedWithTheFormat() {
    String message = error(config().set("memcached.pools", "127.0.0.1:21004"));
    assertTrue(message.contains("memcached.pools: '127.0.0.1:21004' is not a list of named server lists ('127.0.0.1:21004' does not start with NAME=)"), message);
    assertTrue(message.contains("NAME=host:port"), message);
  }

  @Test
  void validPoolsAndAGutterAreAccepted() {
    PageCacheConfig c = config().set("memcached.gutter", "127.0.0.1:21003")
        .set("memcached.pools", "big=127.0.0.1:21004,127.0.0.1:21005").set("policies", "archive: pool=big").build();
    assertEquals("big", c.policies.policy("archive").pool());
    assertEquals(2, c.pools.get("big").size());
  }
}
