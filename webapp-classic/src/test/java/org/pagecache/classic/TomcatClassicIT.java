package org.pagecache.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.testing.Http;
import org.pagecache.testing.containers.Deployment;

/** The classic WARs on a stock Tomcat 11: its forward suspends the container's response under a wrapper. */
class TomcatClassicIT extends ClassicWarContract {
  @Override
  Deployment deploy(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return Containers.tomcat("tomcat.home", wars, workDir, env, readyPath);
  }

  /** The capture ends the chain with its view of Tomcat's response (ForwardShield): Tomcat 11's forward unwraps to it. */
  @Test
  void tomcatFindsTheCapturesViewBelowTheCapture() {
    assertEquals("org.apache.catalina.connector.ResponseFacade", Http.text(get(PLAIN + "/response-chain")).trim());
    for (String context : CACHED) {
      assertEquals("a proxy of jakarta.servlet.http.HttpServletResponse",
          Http.text(get(context + "/response-chain")).trim(), context);
    }
  }
}
