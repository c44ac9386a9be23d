package org.pagecache.demo;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;
import org.pagecache.testing.containers.UndertowBase;

/**
 * The demo WAR on Undertow 2.3 as WildFly runs it, with the editor in the BASIC realm (on WildFly:
 * {@code add-user.sh -a -u editor -p editor -g pagecache-admin}; here the launcher's users file).
 */
class UndertowDeploymentIT extends DeployedDemoContract {
  @Override
  Deployment deploy(Path war, Path workDir, Map<String, String> env) {
    return new UndertowBase(workDir).users("editor=editor,pagecache-admin\n").war("ROOT", war)
        .start(env, READY_PATH, READY_WITHIN);
  }
}
