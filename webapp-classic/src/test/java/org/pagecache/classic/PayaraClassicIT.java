package org.pagecache.classic;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/** The classic WARs on Payara Micro 6 (GlassFish's line), all three in one instance: its start-up is the slowest. */
class PayaraClassicIT extends ClassicWarContract {
  @Override
  Deployment deploy(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return Containers.payara(wars, workDir, env, readyPath);
  }
}
