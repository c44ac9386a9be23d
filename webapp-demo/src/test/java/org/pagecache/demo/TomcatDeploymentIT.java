package org.pagecache.demo;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/** The demo WAR on the standalone Tomcat 11 distribution (unpacked by the build). */
class TomcatDeploymentIT extends DeployedDemoContract {
  @Override
  Deployment deploy(Path war, Path workDir, Map<String, String> env) {
    return StandaloneTomcat.deploy(distribution("tomcat.home"), war, workDir, env, READY_WITHIN);
  }
}
