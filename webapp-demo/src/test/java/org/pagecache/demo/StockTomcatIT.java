package org.pagecache.demo;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/** The demo WAR on Tomcat 11's own configuration: its UserDatabaseRealm, with no user in tomcat-users.xml. */
class StockTomcatIT extends StockContainerContract {
  @Override
  Deployment deployStock(Path war, Path workDir, Map<String, String> env) {
    return StandaloneTomcat.deployStock(DeployedDemoContract.distribution("tomcat.home"), war, workDir, env,
        DeployedDemoContract.READY_WITHIN);
  }
}
