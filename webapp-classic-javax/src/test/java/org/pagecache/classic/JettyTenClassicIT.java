package org.pagecache.classic;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/**
 * The javax build of the classic WARs on a stock Jetty 10 (Servlet 4.0) base with JSP support: Jetty
 * 10 has one servlet API, so its modules are {@code http,deploy,jsp} where Jetty 12's are ee10-*.
 */
class JettyTenClassicIT extends ClassicWarContract {
  @Override
  Deployment deploy(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return Containers.jetty("jetty10.home", "http,deploy,jsp", wars, workDir, env, readyPath);
  }
}
