package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.pagecache.soak.Frontend;
import org.pagecache.soak.GenerationPage;
import org.pagecache.soak.RawHttp;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * A frontend killed with -9 while it rebuilds a page (issue 27): a child JVM takes the page's
 * lock and blocks in its handler, and is killed. The lock it leaves must not keep the page old:
 * a refresh made after the crash is in force at once (the lock is per token, so the next request
 * rebuilds instead of serving STALE behind a lock nobody holds), and without a refresh the lock
 * frees the page once its lease runs out, well before {@code lock.ttl}. Events are asserted (which
 * request rebuilt, what it shows), not times.
 */
class FaultTestFrontendDiesMidBuild {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @TempDir
  Path dir;

  private Process child;
  private Frontend parent;

  @AfterEach
  void stop() {
    if (child != null) {
      child.destroyForcibly();
    }
    if (parent != null) {
      parent.close();
    }
  }

  private Map<String, String> settings(String namespace) {
    // lock.ttl far longer than the test: only the fix frees the page in time.
    return Map.of("memcached.servers", memcached.servers(), "namespace", namespace, "near.trust", "0s",
        "lock.ttl", "60s", "lock.wait", "3s", "memcached.op.timeout", "2s",
        "rebuild.background", "0"); // the builder is the request itself, so the test can hold it in the child
  }

  /** The child frontend, serving; its handler's builds block while the file {@code hold} exists. */
  private int startChild(String namespace) throws IOException {
    child = new ProcessBuilder(Frontend.command(settings(namespace), dir)).redirectErrorStream(true).start();
    return Frontend.awaitPort(child);
  }

  /** The child takes the page's lock and dies -9 in its handler. */
  private void childDiesBuilding(int childPort, String path) throws Exception {
    Files.writeString(dir.resolve("hold"), "");
    CompletableFuture.runAsync(() -> {
      try {
        RawHttp.get(childPort, path, 60_000);
      } catch (IOException e) {
        // killed mid-request: expected
      }
    });
    Eventually.assertWithin(Duration.ofSeconds(20), "the child is building", () -> Files.exists(dir.resolve("building")));
    child.destroyForcibly(); // SIGKILL: no finally block, no release
    assertTrue(child.waitFor(20, TimeUnit.SECONDS));
    Files.delete(dir.resolve("hold"));
  }

  @Test
  void aRefreshAfterABuilderDiedIsInForceOnTheNextRequest() throws Exception {
    GenerationPage.publish(dir, 1);
    parent = Frontend.start(settings("die1"), dir);
    int childPort = startChild("die1");
    assertEquals(1, GenerationPage.generationOf(RawHttp.get(parent.port(), "/p/1", 10_000).body()));

    GenerationPage.publish(dir, 2);
    parent.cache.refreshHandler("page");
    childDiesBuilding(childPort, "/p/1");

    GenerationPage.publish(dir, 3);
    parent.cache.refreshHandler("page");
    int builds = parent.page.builds.get();
    RawHttp.Answer next = RawHttp.get(parent.port(), "/p/1", 10_000);
    assertEquals("MISS", next.xCache(), "the next request rebuilds, not STALE behind the dead builder's lock");
    assertEquals(3, GenerationPage.generationOf(next.body()));
    assertEquals(builds + 1, parent.page.builds.get());
  }

  @Test
  void withoutARefreshADeadBuildersLockFreesThePageAfterItsLeaseNotLockTtl() throws Exception {
    GenerationPage.publish(dir, 1);
    parent = Frontend.start(settings("die2"), dir);
    int childPort = startChild("die2");
    assertEquals(1, GenerationPage.generationOf(RawHttp.get(parent.port(), "/p/1", 10_000).body()));

    GenerationPage.publish(dir, 2);
    parent.cache.refreshHandler("page");
    childDiesBuilding(childPort, "/p/1");
    RawHttp.Answer during = RawHttp.get(parent.port(), "/p/1", 10_000);
    assertEquals("STALE", during.xCache(), "the lock is still there right after the crash");
    // lock.ttl is 60 s; the lease is 3 s: within 20 s a request has rebuilt the page.
    Eventually.assertWithin(Duration.ofSeconds(20), "a request rebuilt the page after the dead builder's lease",
        () -> {
          try {
            return GenerationPage.generationOf(RawHttp.get(parent.port(), "/p/1", 10_000).body()) == 2;
          } catch (IOException e) {
            return false;
          }
        });
  }

  @Test
  void aLiveBuilderSlowerThanItsLeaseRenewsItAndKeepsThePage() throws Exception {
    GenerationPage.publish(dir, 1);
    parent = Frontend.start(settings("live"), dir);
    assertEquals(1, GenerationPage.generationOf(RawHttp.get(parent.port(), "/p/1", 10_000).body()));
    GenerationPage.publish(dir, 2);
    parent.cache.refreshHandler("page");
    Files.writeString(dir.resolve("hold"), "");
    CompletableFuture<RawHttp.Answer> build = CompletableFuture.supplyAsync(() -> {
      try {
        return RawHttp.get(parent.port(), "/p/1", 60_000);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    try {
      Eventually.assertWithin(Duration.ofSeconds(20), "building", () -> Files.exists(dir.resolve("building")));
      long renewed = parent.cache.engine.lock.renewals();
      // More renewals than the lease has seconds: unrenewed, the lock would have expired by now.
      Eventually.assertWithin(Duration.ofSeconds(20), "renewed past its lease",
          () -> parent.cache.engine.lock.renewals() > renewed + org.pagecache.internal.freshness.RebuildLock.LEASE_SECONDS);
      int builds = parent.page.builds.get();
      assertEquals("STALE", RawHttp.get(parent.port(), "/p/1", 10_000).xCache(), "still its build: served stale");
      assertEquals(builds, parent.page.builds.get(), "nobody else rebuilt it");
    } finally {
      Files.deleteIfExists(dir.resolve("hold"));
    }
    assertEquals(2, GenerationPage.generationOf(build.get(30, TimeUnit.SECONDS).body()));
    assertEquals(0, parent.cache.engine.lock.held(), "released, no longer renewed");
  }
}
