package org.pagecache.classic;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/** The classic WARs on a stock Jetty 12 base with JSP support (ee10-jsp), as a JSP application needs. */
class JettyClassicIT extends ClassicWarContract {
  @Override
  Deployment deploy(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return Containers.jetty(wars, workDir, env, readyPath);
  }
}
