package org.pagecache.demo;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/** The javax demo WAR on Tomcat 9's own configuration: its UserDatabaseRealm, with no user in tomcat-users.xml. */
class StockTomcatNineIT extends StockContainerContract {
  @Override
  Deployment deployStock(Path war, Path workDir, Map<String, String> env) {
    return StandaloneTomcat.deployStock(DeployedDemoContract.distribution("tomcat9.home"), war, workDir, env,
        DeployedDemoContract.READY_WITHIN);
  }
}
