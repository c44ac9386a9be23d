package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.stats.HandlerStats;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;

/**
 * Two frontends behind one memcached (two embedded sites, one namespace): once each has sent its
 * figures, the admin page and {@code api/stats} of either show the same whole-site figures, the
 * sum of both servers' own, and "pages rebuilt since the last refresh" counts the rebuilds of both
 * after a refresh made on one.
 */
class ClusterViewTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);
  private static final String BEARER = "Bearer " + AdminSite.TOKEN;

  private static final AtomicInteger CLUSTERS = new AtomicInteger();

  private AdminSite a;
  private AdminSite b;

  @BeforeEach
  void start() {
    String namespace = "cluster" + CLUSTERS.incrementAndGet() + "x" + ProcessHandle.current().pid() % 1000;
    // near.trust=0s: every request asks memcached, so a refresh made on one server reaches the other at once
    a = AdminSite.on(memcached.servers()).set("namespace", namespace).set("near.trust", "0s").start();
    b = AdminSite.on(memcached.servers()).set("namespace", namespace).set("near.trust", "0s").start();
  }

  @AfterEach
  void stop() {
    a.close();
    b.close();
  }

  @Test
  void bothFrontendsShowTheWholeSitesFiguresOnceEachHasSentThem() {
    get(a, "/article/1", "/article/1", "/article/1", "/home/1");
    get(b, "/article/1", "/article/1", "/article/2", "/home/1", "/home/1");
    assertTrue(a.cache().engine.site.sendNow());
    assertTrue(b.cache().engine.site.sendNow());

    String fromA = stats(a);
    String fromB = stats(b);

    for (String handler : new String[] {"article", "home"}) {
      assertEquals(cluster(fromA, handler), cluster(fromB, handler), handler + ": the same on both servers");
      HandlerStats onA = a.cache().stats().handler(handler);
      HandlerStats onB = b.cache().stats().handler(handler);
      String figures = cluster(fromA, handler);
      assertEquals(onA.hits() + onA.stale() + onB.hits() + onB.stale(), field(figures, "hits"), handler + " hits");
      assertEquals(onA.misses() + onB.misses(), field(figures, "misses"), handler + " misses");
      assertEquals(onA.rebuilds() + onB.rebuilds(), field(figures, "rebuilds"), handler + " rebuilds");
    }
    assertEquals(6, field(cluster(fromA, "article"), "hits") + field(cluster(fromA, "article"), "misses"),
        "every article request of both servers");
  }

  @Test
  void afterARefreshOnOneServerRebuiltSinceCountsTheRebuildsOfBoth() {
    get(a, "/article/1", "/article/2");
    get(b, "/article/1", "/article/2");
    assertTrue(a.cache().engine.site.sendNow());
    assertTrue(b.cache().engine.site.sendNow());

    HttpResponse<byte[]> refresh = Http.send("POST", a.admin("/api/handlers/article/refresh"), "Authorization", BEARER);
    assertEquals(200, refresh.statusCode(), Http.text(refresh));
    get(a, "/article/1");
    get(b, "/article/2");
    assertTrue(a.cache().engine.site.sendNow());
    assertTrue(b.cache().engine.site.sendNow());

    assertEquals(1, a.cache().stats().handler("article").rebuiltSinceRefresh(), "this server's own");
    assertEquals(2, field(cluster(stats(a), "article"), "rebuiltSinceRefresh"), "the whole site's, on a");
    assertEquals(2, field(cluster(stats(b), "article"), "rebuiltSinceRefresh"), "the whole site's, on b");
    String page = AdminClient.signIn(a, "editor", "editor").get(a.admin("/")).body();
    assertTrue(page.contains("<tr data-cluster=\"article\"><th scope=\"row\">article</th>"), page);
    assertTrue(page.contains("<td class=\"n\" data-c=\"rebuiltSinceRefresh\">2</td>"), page);
  }

  private static void get(AdminSite site, String... paths) {
    for (String path : paths) {
      assertEquals(200, Http.get(site.uri(path)).statusCode(), path);
    }
  }

  private static String stats(AdminSite site) {
    HttpResponse<byte[]> r = Http.get(site.admin("/api/stats"), "Authorization", BEARER);
    assertEquals(200, r.statusCode(), Http.text(r));
    return Http.text(r);
  }

  /** The handler's {@code cluster} object in {@code api/stats}. */
  private static String cluster(String stats, String handler) {
    Matcher m = Pattern.compile("\"name\":\"" + handler + "\".*?\"cluster\":(\\{[^}]*\\})", Pattern.DOTALL).matcher(stats);
    assertTrue(m.find(), "no cluster figures for " + handler + " in " + stats);
    return m.group(1);
  }

  private static long field(String object, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":(-?\\d+)").matcher(object);
    assertTrue(m.find(), name + " in " + object);
    return Long.parseLong(m.group(1));
  }
}
