package org.pagecache.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.testing.Http;
import org.pagecache.testing.containers.Deployment;

/** The classic WARs on Payara Micro 6 (GlassFish's line), all three in one instance: its start-up is the slowest. */
class PayaraClassicIT extends ClassicWarContract {
  @Override
  Deployment deploy(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return Containers.payara(wars, workDir, env, readyPath);
  }

  /**
   * Payara's web container is a fork of Tomcat's (its response is Catalina's ResponseFacade), so the
   * capture ends its chain with the same view as on Tomcat; a plain delegate, which Payara's forward
   * and include pass through as the pages above show.
   */
  @Test
  void payaraFindsTheCapturesViewBelowTheCaptureAsTomcatDoes() {
    assertEquals("org.apache.catalina.connector.ResponseFacade", Http.text(get(PLAIN + "/response-chain")).trim());
    for (String context : CACHED) {
      assertEquals("a proxy of jakarta.servlet.http.HttpServletResponse",
          Http.text(get(context + "/response-chain")).trim(), context);
    }
  }
}
