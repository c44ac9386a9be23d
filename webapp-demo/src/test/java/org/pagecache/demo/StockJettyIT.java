package org.pagecache.demo;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;

/**
 * The demo WAR on a stock Jetty 12 base ({@code --add-modules=http,ee10-deploy}, no login service).
 * Jetty refuses a WAR with a BASIC login-config when the server has no login service ("No
 * LoginService for BasicAuthenticator", 503 everywhere); WEB-INF/jetty-ee10-web.xml gives it an
 * empty one in that case.
 */
class StockJettyIT extends StockContainerContract {
  @Override
  Deployment deployStock(Path war, Path workDir, Map<String, String> env) {
    return StandaloneJetty.deployStock(DeployedDemoContract.distribution("jetty.home"), war, workDir, env,
        DeployedDemoContract.READY_WITHIN);
  }
}
