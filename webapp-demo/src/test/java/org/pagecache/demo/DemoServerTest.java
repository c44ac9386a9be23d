package org.pagecache.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Where scripts/demo.sh's server listens and the URL it prints; DemoServerIT runs the server itself. */
class DemoServerTest {
  @Test
  void withoutDemoHostOnlyThisMachineCanConnect() {
    assertEquals("127.0.0.1", DemoServer.host(null));
    assertEquals("127.0.0.1", DemoServer.host("  "));
  }

  @Test
  void demoHostChoosesTheAddress() {
    assertEquals("0.0.0.0", DemoServer.host("0.0.0.0"));
    assertEquals("192.168.1.20", DemoServer.host(" 192.168.1.20 "));
  }

  @Test
  void thePrintedUrlIsOneABrowserCanOpen() {
    assertEquals("http://127.0.0.1:8080/", DemoServer.url("127.0.0.1", 8080));
    assertEquals("http://localhost:8080/", DemoServer.url("0.0.0.0", 8080), "all interfaces include this machine's");
    assertEquals("http://localhost:8080/", DemoServer.url("::", 8080));
    assertEquals("http://[::1]:8080/", DemoServer.url("::1", 8080));
    assertEquals("http://[::1]:8080/", DemoServer.url("[::1]", 8080));
  }
}
