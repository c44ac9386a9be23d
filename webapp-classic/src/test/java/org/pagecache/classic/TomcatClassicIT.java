package org.pagecache.classic;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;
import org.pagecache.testing.containers.TomcatBase;

/** The classic WARs on a stock Tomcat 11: its forward suspends the container's response under a wrapper. */
class TomcatClassicIT extends ClassicWarContract {
  @Override
  Deployment deploy(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return Containers.tomcat("tomcat.home", wars, workDir, env, readyPath);
  }
}
