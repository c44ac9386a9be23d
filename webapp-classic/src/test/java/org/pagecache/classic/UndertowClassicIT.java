package org.pagecache.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.testing.Http;
import org.pagecache.testing.containers.Deployment;

/**
 * The classic WARs on Undertow 2.3 as WildFly runs it (non-standard wrappers refused: UT010024),
 * each WAR's web.xml read into Undertow's deployment by the test-jar's launcher, JSPs by Jasper.
 */
class UndertowClassicIT extends ClassicWarContract {
  @Override
  Deployment deploy(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return Containers.undertow(wars, workDir, env, readyPath);
  }

  /**
   * The view of the client's response that ends the chain below the capture on Tomcat (no
   * ServletResponseWrapper, so Tomcat's unwrapping stops there) is Tomcat's alone: Undertow finds
   * its own response at the bottom, as without PageCache, on the build and on the hit.
   */
  @Test
  void undertowFindsItsOwnResponseBelowTheCaptureNotTomcatsView() {
    HttpResponse<byte[]> plain = get(PLAIN + "/response-chain");
    assertEquals("io.undertow.servlet.spec.HttpServletResponseImpl", Http.text(plain).trim());
    for (String context : CACHED) {
      HttpResponse<byte[]> first = get(context + "/response-chain");
      HttpResponse<byte[]> second = get(context + "/response-chain");
      assertEquals(Http.text(plain), Http.text(first), context + " (first request, built through the capture)");
      assertEquals(Http.text(plain), Http.text(second), context + " (second request)");
      assertTrue(xCache(second).startsWith("HIT"), context + ": " + xCache(second));
    }
  }
}
