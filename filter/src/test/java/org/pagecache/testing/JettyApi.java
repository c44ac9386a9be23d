package org.pagecache.testing;

import java.nio.ByteBuffer;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.http.HttpTester;

/**
 * The harness's calls that differ between Jetty 12 (this, the Jakarta tests) and Jetty 10 (the
 * javax artifact's tests, which compile the harness from these sources with this one class replaced
 * by filter-javax's own): kept here so the rest of the harness is the same source for both.
 */
public final class JettyApi {
  private JettyApi() {}

  /**
   * Hostile paths (encoded slashes, dot segments) must reach the filter under test: Jetty 12's
   * servlet handler refuses them before any filter unless told to decode them.
   */
  public static void decodeAmbiguousUris(ServletContextHandler context) {
    context.getServletHandler().setDecodeAmbiguousURIs(true);
  }

  /** A response read from the connector's bytes; a HEAD's has headers and no body. */
  public static HttpTester.Response parseResponse(ByteBuffer bytes, boolean head) {
    return head ? HttpTester.parseHeadResponse(bytes) : HttpTester.parseResponse(bytes);
  }
}
