package org.pagecache.testing;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.servlet.ServletContextHandler;

/**
 * Jetty 10's side of filter's {@code org.pagecache.testing.JettyApi}: the harness's calls that
 * differ between Jetty 12 and Jetty 10. The only test source this module keeps; the rest is
 * generated from filter's.
 */
public final class JettyApi {
  private JettyApi() {}

  /** Nothing to do: Jetty 10 passes ambiguous paths to the filters under UriCompliance.UNSAFE. */
  public static void decodeAmbiguousUris(ServletContextHandler context) {}

  /** A response read from the connector's bytes; a HEAD's has headers and no body. */
  public static HttpTester.Response parseResponse(ByteBuffer bytes, boolean head) {
    if (!head) {
      return HttpTester.parseResponse(bytes);
    }
    HttpTester.Response response = new HttpTester.Response();
    HttpParser parser = new HttpParser(response);
    parser.setHeadResponse(true);
    parser.parseNext(bytes);
    return parser.isComplete() ? response : null;
  }
}
