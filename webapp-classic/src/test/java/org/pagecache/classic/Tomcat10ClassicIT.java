package org.pagecache.classic;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/** The classic WARs on a stock Tomcat 10.1: its forward closes the wrapped response it was given. */
class Tomcat10ClassicIT extends ClassicWarContract {
  @Override
  Deployment deploy(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return Containers.tomcat("tomcat10.home", wars, workDir, env, readyPath);
  }
}
