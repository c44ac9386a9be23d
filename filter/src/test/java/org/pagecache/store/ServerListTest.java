package org.pagecache.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ServerListTest {
  private static final String PARAM = "pagecache.memcached.servers";

  @Test
  void oneServerHasWeightOne() {
    ServerList servers = ServerList.parse(PARAM, "127.0.0.1:11211");

    assertEquals(List.of(new InetSocketAddress("127.0.0.1", 11211)), servers.addresses());
    assertArrayEquals(new int[] {1}, servers.weights());
  }

  @Test
  void weightsAreOptionalPerServerAndSpacesAroundEntriesAreIgnored() {
    ServerList servers = ServerList.parse(PARAM, " 127.0.0.1:11211 ,\n127.0.0.2:11212:3 ");

    assertEquals(2, servers.size());
    assertEquals("127.0.0.2:11212", servers.hostPort(1));
    assertArrayEquals(new int[] {1, 3}, servers.weights());
  }

  @Test
  void hostsKeepTheNameTheOperatorWrote() {
    ServerList servers = ServerList.parse(PARAM, "localhost:11211,127.0.0.1:11212");
    servers.addresses().forEach(InetSocketAddress::getHostName); // what xmemcached's logging does

    assertEquals("localhost:11211", servers.hostPort(0));
    assertEquals("127.0.0.1:11212", servers.hostPort(1));
  }

  @Test
  void anUnknownHostIsKeptUnresolvedRatherThanFailingStartUp() {
    ServerList servers = ServerList.parse(PARAM, "no-such-host.invalid:11211");

    assertTrue(servers.addresses().get(0).isUnresolved());
    assertEquals("no-such-host.invalid:11211", servers.hostPort(0));
  }

  @Test
  void weightsCannotBeChangedFromOutside() {
    ServerList servers = ServerList.parse(PARAM, "127.0.0.1:11211:2");

    servers.weights()[0] = 50;

    assertArrayEquals(new int[] {2}, servers.weights());
    assertEquals(ServerList.parse(PARAM, "127.0.0.1:11211:2"), servers);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "  ", "localhost", "localhost:abc", "localhost:0", "localhost:65536",
      "localhost:-1", "localhost:11211:0", "localhost:11211:-2", "localhost:11211:x", "localhost:11211:101",
      "localhost:11211:", ":11211", "a b:11211", "localhost:11211:1:1", "127.0.0.1:11211,,127.0.0.1:11212",
      "127.0.0.1:11211,", ",127.0.0.1:11211", "127.0.0.1:11211,127.0.0.1:11211:2", "127.0.0.1;11211",
      "[::1]:11211"})
  void aBadListNamesTheParameterTheValueAndTheFormat(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServerList.parse(PARAM, value));

    assertTrue(e.getMessage().startsWith(PARAM + ": "), e.getMessage());
    assertTrue(value.isBlank() || e.getMessage().contains("'" + value + "'"), e.getMessage());
    assertTrue(e.getMessage().contains("host:port[:weight]"), e.getMessage());
  }

  @ParameterizedTest
  @NullSource
  void aMissingListIsRefused(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServerList.parse(PARAM, value));

    assertTrue(e.getMessage().startsWith(PARAM + ": no servers"), e.getMessage());
  }

  @Test
  void theMessageSaysWhatIsWrong() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ServerList.parse(PARAM, "localhost:abc"));

    assertEquals(PARAM + ": 'localhost:abc' is not a server list (port 'abc' is not 1..65535); "
        + "use host:port[:weight],... e.g. 127.0.0.1:11211,10.0.0.2:11211:2", e.getMessage());
  }
}
