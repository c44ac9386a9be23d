package org.pagecache.demo;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/** The javax demo WAR on a standalone Tomcat 9 with the editor in tomcat-users.xml: README steps 1 to 5. */
class TomcatNineDeploymentIT extends DeployedDemoContract {
  @Override
  Deployment deploy(Path war, Path workDir, Map<String, String> env) {
    return StandaloneTomcat.deploy(distribution("tomcat9.home"), war, workDir, env, READY_WITHIN);
  }
}
