package org.pagecache.demo;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/** The demo WAR on the standalone Jetty 12 distribution (jetty-home, unpacked by the build). */
class JettyDeploymentIT extends DeployedDemoContract {
  @Override
  Deployment deploy(Path war, Path workDir, Map<String, String> env) {
    return StandaloneJetty.deploy(distribution("jetty.home"), war, workDir, env, READY_WITHIN);
  }
}
