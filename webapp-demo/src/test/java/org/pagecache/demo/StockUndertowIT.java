package org.pagecache.demo;

import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;
import org.pagecache.testing.containers.UndertowBase;

/**
 * The demo WAR on Undertow 2.3 as WildFly runs it: web.xml read into Undertow's deployment by the
 * test-jar's launcher, the BASIC realm knowing nobody (a stock WildFly's application realm has no
 * users until add-user.sh creates one). The demo has no JSPs, so no JSP engine is registered.
 */
class StockUndertowIT extends StockContainerContract {
  @Override
  Deployment deployStock(Path war, Path workDir, Map<String, String> env) {
    return new UndertowBase(workDir).war("ROOT", war)
        .start(env, DeployedDemoContract.READY_PATH, DeployedDemoContract.READY_WITHIN);
  }
}
