package org.pagecache.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.PageCacheConfig;
import org.pagecache.store.ServerList;

/** memcached.remote, memcached.remote.backlog, memcached.warm.from and .for: checked at start-up. */
class ClusterSettingsTest {
  private static final ServerList LOCAL = ServerList.parse("memcached.servers", "127.0.0.1:21211");

  private static String error(String remote, String backlog, String from, String during) {
    return assertThrows(IllegalArgumentException.class,
        () -> ClusterSettings.parse(remote, backlog, from, during, LOCAL)).getMessage();
  }

  @Test
  void namedClustersAreReadInTheOrderWritten() {
    ClusterSettings s = ClusterSettings.parse(" us=10.1.0.1:11211,10.1.0.2:11211:2 ; asia=10.2.0.1:11211; ", "500",
        "asia", "15m", LOCAL);
    assertEquals(List.of("us", "asia"), List.copyOf(NamedServerLists.parse("memcached.remote",
        "us=10.1.0.1:11211,10.1.0.2:11211:2; asia=10.2.0.1:11211").keySet()));
    assertEquals(2, s.remotes().get("us").size());
    assertEquals(List.of(1, 2), s.remotes().get("us").weightList());
    assertEquals(500, s.backlogLimit());
    assertEquals("asia", s.warmFrom());
    assertEquals(Duration.ofMinutes(15), s.warmFor());
  }

  @Test
  void nothingSetIsOneCluster() {
    ClusterSettings s = ClusterSettings.parse("", "10000", "", "30m", LOCAL);
    assertTrue(s.remotes().isEmpty());
    assertNull(s.warmFrom());
    assertEquals(Duration.ZERO, s.warmFor());
  }

  @Test
  void mistakesNameTheSettingTheValueAndWhatIsAccepted() {
    String noName = error("10.1.0.1:11211", "10", "", "0");
    assertTrue(noName.startsWith("memcached.remote: '10.1.0.1:11211'") && noName.contains("NAME=host:port"), noName);
    String twice = error("us=10.1.0.1:11211; us=10.1.0.2:11211", "10", "", "0");
    assertTrue(twice.contains("names 'us' twice"), twice);
    String badList = error("us=10.1.0.1:99999", "10", "", "0");
    assertTrue(badList.startsWith("memcached.remote: cluster 'us': '10.1.0.1:99999'") && badList.contains("port"), badList);
    String backlog = error("us=10.1.0.1:11211", "lots", "", "0");
    assertTrue(backlog.startsWith("memcached.remote.backlog: 'lots'") && backlog.contains("1 to"), backlog);
    String from = error("us=10.1.0.1:11211", "10", "eu", "10m");
    assertTrue(from.startsWith("memcached.warm.from: 'eu' is not a cluster of memcached.remote (us)"), from);
    String during = error("us=10.1.0.1:11211", "10", "us", "soon");
    assertTrue(during.startsWith("memcached.warm.for: 'soon'"), during);
    String zero = error("us=10.1.0.1:11211", "10", "us", "0");
    assertTrue(zero.startsWith("memcached.warm.for: '0' must be more than 0"), zero);
  }

  @Test
  void aRemoteServerThatIsAlsoALocalOneFails() {
    String message = error("us=10.1.0.1:11211,127.0.0.1:21211", "10", "", "0");
    assertTrue(message.startsWith("memcached.remote: cluster 'us' lists 127.0.0.1:21211, a server of this cluster"),
        message);
  }

  @Test
  void theConfigurationReportsThemWithTheOthersAtStartUp() {
    String message = assertThrows(IllegalArgumentException.class, () -> PageCacheConfig.builder().ignoreEnvironment()
        .set("memcached.servers", "127.0.0.1:21211")
        .set("memcached.remote", "us=127.0.0.1:21211")
        .set("ttl", "forever")
        .build()).getMessage();
    assertTrue(message.contains("memcached.remote: cluster 'us' lists 127.0.0.1:21211"), message);
    assertTrue(message.contains("ttl: 'forever'"), message);
  }
}
