package org.pagecache.classic;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/** The javax build of the classic WARs on a stock Tomcat 9 (Servlet 4.0), with pagecache-filter-javax. */
class TomcatNineClassicIT extends ClassicWarContract {
  @Override
  Deployment deploy(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return Containers.tomcat("tomcat9.home", wars, workDir, env, readyPath);
  }
}
