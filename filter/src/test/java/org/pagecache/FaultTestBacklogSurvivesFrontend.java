package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.pagecache.soak.EditorActions;
import org.pagecache.soak.Frontend;
import org.pagecache.soak.GenerationPage;
import org.pagecache.soak.RawHttp;
import org.pagecache.stats.ClusterStatus;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * Issue 37: an invalidation for another data centre survives the frontend that took it. Two
 * frontends in "eu" share eu's two memcached nodes, one frontend in "us" has its own node, each
 * names the other in {@code memcached.remote}. us's memcached hangs (SIGSTOP), an editor refreshes
 * on eu1, a child JVM, which is then killed with -9; us's memcached resumes, and the other eu
 * frontends deliver what eu1 took, from the backlog eu's memcached keeps. Every wait has a deadline;
 * the figures printed (FIGURE ...) are measured, not asserted.
 */
class FaultTestBacklogSurvivesFrontend {
  @RegisterExtension
  static MemcachedExtension eu = MemcachedExtension.nodes(2);
  @RegisterExtension
  static MemcachedExtension us = MemcachedExtension.nodes(1);

  private static final int PAGES = 20;
  private static final Duration DELIVERY_BOUND = Duration.ofSeconds(20);

  @TempDir
  Path dir;

  private Process eu1;
  private final List<Frontend> inProcess = new ArrayList<>();

  @AfterEach
  void stop() {
    if (eu1 != null) {
      eu1.destroyForcibly();
    }
    inProcess.forEach(Frontend::close);
  }

  private Map<String, String> euSettings(String namespace) {
    Map<String, String> s = new LinkedHashMap<>(common(namespace));
    s.put("memcached.servers", eu.servers());
    s.put("memcached.remote", "us=" + us.servers());
    return s;
  }

  private Map<String, String> usSettings(String namespace) {
    Map<String, String> s = new LinkedHashMap<>(common(namespace));
    s.put("memcached.servers", us.servers());
    s.put("memcached.remote", "eu=" + eu.servers());
    return s;
  }

  private static Map<String, String> common(String namespace) {
    // ttl=1h: without the fix the us pages would stay for an hour.
    return Map.of("namespace", namespace, "near.trust", "0s", "ttl", "1h", "memcached.op.timeout", "500ms",
        "retry.interval", "500ms");
  }

  private Frontend start(Map<String, String> settings) {
    Frontend f = Frontend.start(settings, dir);
    inProcess.add(f);
    return f;
  }

  /** eu1: a child JVM, so it can be killed with -9. */
  private int startEu1(Map<String, String> settings) throws IOException {
    eu1 = new ProcessBuilder(Frontend.command(settings, dir)).redirectErrorStream(true).start();
    return Frontend.awaitPort(eu1);
  }

  private void killEu1() throws InterruptedException {
    eu1.destroyForcibly(); // SIGKILL: no shutdown hook, no close
    assertTrue(eu1.waitFor(20, TimeUnit.SECONDS));
  }

  /** Builds the us pages (generation 1) and checks they are served from memcached. */
  private static void warm(Frontend usFrontend) throws IOException {
    for (int i = 0; i < PAGES; i++) {
      RawHttp.get(usFrontend.port(), "/p/" + i, 10_000);
    }
    for (int i = 0; i < PAGES; i++) {
      assertEquals("HIT", RawHttp.get(usFrontend.port(), "/p/" + i, 10_000).xCache());
    }
  }

  /** How many of the us pages are older than generation {@code generation}, as a reader gets them. */
  private static int olderThan(Frontend usFrontend, int generation) {
    int older = 0;
    for (int i = 0; i < PAGES; i++) {
      try {
        if (GenerationPage.generationOf(RawHttp.get(usFrontend.port(), "/p/" + i, 10_000).body()) < generation) {
          older++;
        }
      } catch (IOException e) {
        older++;
      }
    }
    return older;
  }

  private static ClusterStatus.Remote remote(Frontend f) {
    return f.cache.clusterStatus().remotes().get(0);
  }

  /** Resumes us and waits until no us page is older than the refresh; the seconds it took. */
  private static double resumeAndWaitForDelivery(Frontend usFrontend, String what) {
    long resumed = System.nanoTime();
    us.node(0).resume();
    Eventually.assertWithin(DELIVERY_BOUND, what + ": 0 of " + PAGES + " us pages older than the refresh",
        () -> olderThan(usFrontend, 2) == 0);
    double seconds = (System.nanoTime() - resumed) / 1e9;
    System.out.printf("FIGURE %s: 0 of %d us pages older than the refresh %.1f s after us resumed%n", what, PAGES, seconds);
    return seconds;
  }

  @Test
  void aRefreshTakenByAFrontendKilledWithMinus9ReachesTheOtherCluster() throws Exception {
    GenerationPage.publish(dir, 1);
    Frontend usFrontend = start(usSettings("bs1"));
    Frontend eu2 = start(euSettings("bs1"));
    int eu1Port = startEu1(euSettings("bs1"));
    warm(usFrontend);

    us.node(0).pause();
    GenerationPage.publish(dir, 2);
    String answer = EditorActions.post(eu1Port, "/refresh?handler=page");
    assertTrue(answer.contains("pending=[us]"), "held for us: " + answer);
    killEu1();
    // Every frontend of eu shows what waits for us, not only the one that took it.
    // (2: the refresh, and the evict of the editor's POST URL that the filter makes, as after any write)
    assertTrue(Eventually.within(DELIVERY_BOUND, () -> remote(eu2).pending() == 2),
        "eu2 shows the invalidation eu1 took: " + remote(eu2));
    assertTrue(remote(eu2).pendingSinceMillis() > 0, remote(eu2).toString());

    resumeAndWaitForDelivery(usFrontend, "eu1 killed");
    Eventually.assertWithin(DELIVERY_BOUND, "eu2's backlog emptied", () -> remote(eu2).pending() == 0);
  }

  @Test
  void theBacklogSurvivesTheLossOfTheLocalNodeItWasReadFromToo() throws Exception {
    GenerationPage.publish(dir, 1);
    Frontend usFrontend = start(usSettings("bs2"));
    Frontend eu2 = start(euSettings("bs2"));
    int eu1Port = startEu1(euSettings("bs2"));
    warm(usFrontend);

    us.node(0).pause();
    GenerationPage.publish(dir, 2);
    assertTrue(EditorActions.post(eu1Port, "/refresh?handler=page").contains("pending=[us]"));
    killEu1();
    // The node the backlog's key belongs to on eu's ring: without copies on every node, it alone would hold it.
    int owner = eu2.cache.engine.store.cluster().nodeOf(eu2.cache.config().namespace().backlog("us"));
    eu.node(owner).stop();
    System.out.println("FIGURE eu node " + owner + " of 2 stopped (the backlog key's ring owner)");

    resumeAndWaitForDelivery(usFrontend, "eu1 killed and eu's node " + owner + " lost");
  }

  @Test
  void anOverflowEmptiesTheOtherClusterOnceItAnswersEvenAfterTheFrontendDied() throws Exception {
    GenerationPage.publish(dir, 1);
    Frontend usFrontend = start(usSettings("bs3"));
    Map<String, String> small = euSettings("bs3");
    small.put("memcached.remote.backlog", "2");
    Frontend eu2 = start(small);
    int eu1Port = startEu1(small);
    warm(usFrontend);

    us.node(0).pause();
    GenerationPage.publish(dir, 2);
    EditorActions.post(eu1Port, "/tag?tag=a");
    EditorActions.post(eu1Port, "/tag?tag=b");
    // The third overflows the backlog: the refresh itself is one of the invalidations it would lose.
    String third = EditorActions.post(eu1Port, "/refresh?handler=page");
    assertTrue(third.contains("pending=[us]"), "covered by emptying us: " + third);
    killEu1();
    Eventually.assertWithin(DELIVERY_BOUND, "eu2 shows the emptying eu1 queued", () -> remote(eu2).pending() >= 1);

    resumeAndWaitForDelivery(usFrontend, "overflow, eu1 killed");
    // eu2 shows the backlog as it last read it, at most a second old (docs/failures.md): not yet empty
    // at the moment the us pages turn new, but soon after.
    Eventually.assertWithin(DELIVERY_BOUND, "eu2's backlog emptied", () -> remote(eu2).pending() == 0);
    assertNotNull(us.text(0).get(usFrontend.cache.config().namespace().emptiedAt()), "us was emptied, once");
  }

  @Test
  void twoSurvivingFrontendsDeliverTheSameBacklogAndThePagesAreRebuiltOnce() throws Exception {
    GenerationPage.publish(dir, 1);
    Frontend usFrontend = start(usSettings("bs4"));
    Frontend eu2 = start(euSettings("bs4"));
    Frontend eu3 = start(euSettings("bs4"));
    int eu1Port = startEu1(euSettings("bs4"));
    warm(usFrontend);
    int builds = usFrontend.page.builds.get();

    us.node(0).pause();
    GenerationPage.publish(dir, 2);
    assertTrue(EditorActions.post(eu1Port, "/refresh?handler=page").contains("pending=[us]"));
    killEu1();
    Eventually.assertWithin(DELIVERY_BOUND, "both surviving frontends show it",
        () -> remote(eu2).pending() == 2 && remote(eu3).pending() == 2);

    resumeAndWaitForDelivery(usFrontend, "two surviving frontends");
    Eventually.assertWithin(DELIVERY_BOUND, "both backlogs empty", () -> remote(eu2).pending() == 0 && remote(eu3).pending() == 0);
    for (int i = 0; i < PAGES; i++) {
      assertEquals("HIT", RawHttp.get(usFrontend.port(), "/p/" + i, 10_000).xCache(), "/p/" + i + " rebuilt once, kept");
    }
    assertEquals(builds + PAGES, usFrontend.page.builds.get(), "each us page rebuilt once, however many delivered it");
    System.out.println("FIGURE two surviving frontends: delivered by eu2 " + remote(eu2).delivered() + ", by eu3 "
        + remote(eu3).delivered() + "; us builds after the refresh: " + (usFrontend.page.builds.get() - builds));
  }

  @Test
  void aReplayAfterThePagesWereRebuiltLeavesThem() throws Exception {
    GenerationPage.publish(dir, 1);
    Frontend usFrontend = start(usSettings("bs5"));
    Frontend eu2 = start(euSettings("bs5"));
    warm(usFrontend);
    String backlogKey = eu2.cache.config().namespace().backlog("us");

    us.node(0).pause();
    GenerationPage.publish(dir, 2);
    eu2.cache.refreshHandler("page");
    byte[] waiting = eu.text(0).getBytes(backlogKey);
    assertNotNull(waiting, "the refresh waits in eu's memcached");
    resumeAndWaitForDelivery(usFrontend, "before the replay");
    int builds = usFrontend.page.builds.get();
    long delivered = remote(eu2).delivered();

    // A frontend that read the backlog before the delivery removed it delivers it again, late.
    for (int i = 0; i < eu.size(); i++) {
      eu.text(i).setRaw(backlogKey, waiting, 0, 0);
    }
    Eventually.assertWithin(DELIVERY_BOUND, "delivered again", () -> remote(eu2).delivered() > delivered);
    for (int i = 0; i < PAGES; i++) {
      RawHttp.Answer a = RawHttp.get(usFrontend.port(), "/p/" + i, 10_000);
      assertEquals("HIT", a.xCache(), "/p/" + i + " rebuilt after the refresh stays after its replay");
    }
    assertEquals(builds, usFrontend.page.builds.get(), "no page rebuilt for the replay");
  }
}
