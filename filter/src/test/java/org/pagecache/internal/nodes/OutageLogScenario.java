package org.pagecache.internal.nodes;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.pagecache.store.Namespace;
import org.pagecache.store.ServerList;
import org.pagecache.store.StoreException;
import org.pagecache.testing.MutableClock;

/**
 * The child JVM of {@link OneNodeOutageLogTest}: a ClusterStore with logging as an operator gets
 * it out of the box (slf4j-simple, every logger at INFO, the client library's included), driven
 * line by line from stdin ({@code calls N}, {@code advance MILLIS}, {@code load N} to start N
 * threads calling without pause, {@code load 0} to stop them, {@code quit}); each command is
 * acknowledged with {@code done} on stdout. The log goes to stderr.
 */
public final class OutageLogScenario {
  private OutageLogScenario() {}

  public static void main(String[] args) throws Exception {
    MutableClock clock = new MutableClock();
    Namespace ns = new Namespace("logs");
    ClusterStore store = ClusterStore.connect(new ClusterStore.Settings(ServerList.parse("memcached.servers", args[0]),
        null, Duration.ofSeconds(10), false, Duration.ofSeconds(1), Duration.ofMillis(200), 1, ns, clock,
        Duration.ofSeconds(1)));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    System.out.println("ready");
    System.out.flush();
    int page = 0;
    java.util.List<Thread> load = new java.util.ArrayList<>();
    java.util.concurrent.atomic.AtomicBoolean loading = new java.util.concurrent.atomic.AtomicBoolean();
    for (String line = in.readLine(); line != null && !line.equals("quit"); line = in.readLine()) {
      String[] command = line.split(" ");
      if (command[0].equals("calls")) {
        for (int i = 0; i < Integer.parseInt(command[1]); i++) {
          try {
            store.get(ns.page("h", "/page/" + (page++ % 60)));
          } catch (StoreException e) {
            // the request would bypass; what matters here is the log
          }
        }
      } else if (command[0].equals("load")) {
        loading.set(false);
        for (Thread t : load) {
          t.join(10_000);
        }
        load.clear();
        loading.set(Integer.parseInt(command[1]) > 0);
        for (int t = 0; t < Integer.parseInt(command[1]); t++) {
          int first = t;
          Thread thread = new Thread(() -> {
            // Calls in flight when a node dies: its connections are reset under them.
            for (int i = first; loading.get() && i < 10_000_000; i++) {
              try {
                store.get(ns.page("h", "/page/" + (i % 60)));
              } catch (StoreException e) {
                // as above
              }
            }
          });
          thread.start();
          load.add(thread);
        }
      } else if (command[0].equals("advance")) {
        clock.advance(Duration.ofMillis(Long.parseLong(command[1])));
      }
      System.out.println("done");
      System.out.flush();
    }
    store.close();
  }
}
