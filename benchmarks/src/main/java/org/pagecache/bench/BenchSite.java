package org.pagecache.bench;

import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.pagecache.PageCache;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.testing.JettyServer;

/**
 * The site the load driver hits: one embedded Jetty 12 on loopback serving the same pages three
 * ways, so one run compares them under identical conditions.
 * <pre>
 *   /nocache/&lt;i&gt;   the backend every time (fixed cost, then the page)
 *   /cached/&lt;i&gt;    the same backend behind PageCacheFilter on memcached (handler "page")
 *   /other/&lt;i&gt;     the same again as a second cached handler ("other"), so a scenario can show
 *                 what one handler's refresh leaves alone
 *   /limit/&lt;i&gt;     the bytes a hit sends, written from memory: the ceiling for any cache here
 * </pre>
 */
final class BenchSite implements AutoCloseable {
  final BenchServlets.Pages pages;
  final BenchServlets.Backend cachedBackend;
  final BenchServlets.Backend otherBackend;
  final BenchServlets.Backend uncachedBackend;
  final JettyServer jetty;
  final PageCache cache;

  /**
   * @param servers  memcached servers for the cache
   * @param policy   the policy of handlers "page" and "other", e.g. {@code ttl=10m, grace=10m}
   */
  BenchSite(String servers, String namespace, String policy, BenchServlets.Pages pages, long costMillis) {
    this(servers, namespace, policy, pages, costMillis, java.util.Map.of());
  }

  /** The same with more settings of the cache, e.g. {@code memcached.gutter}. */
  BenchSite(String servers, String namespace, String policy, BenchServlets.Pages pages, long costMillis,
      java.util.Map<String, String> settings) {
    this.pages = pages;
    this.cachedBackend = new BenchServlets.Backend(pages, costMillis);
    this.otherBackend = new BenchServlets.Backend(pages, costMillis);
    this.uncachedBackend = new BenchServlets.Backend(pages, costMillis);
    PageCacheConfig.Builder builder = PageCacheConfig.builder().ignoreEnvironment()
        .set("memcached.servers", servers)
        .set("namespace", namespace)
        .set("policies", "page: " + policy + "; other: " + policy);
    settings.forEach(builder::set);
    PageCacheConfig config = builder.build();
    PageCacheFilter filter = new PageCacheFilter(config);
    jetty = JettyServer.start(ctx -> {
      FilterHolder holder = new FilterHolder(filter);
      ctx.addFilter(holder, "/cached/*", EnumSet.of(DispatcherType.REQUEST));
      holder.getRegistration().addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/other/*");
      JettyServer.servlet(ctx, "page", cachedBackend, "/cached/*");
      JettyServer.servlet(ctx, "other", otherBackend, "/other/*");
      JettyServer.servlet(ctx, "nocache", uncachedBackend, "/nocache/*");
      JettyServer.servlet(ctx, "limit", new BenchServlets.FromMemory(pages), "/limit/*");
    });
    cache = PageCache.from(jetty.context().getServletContext());
  }

  URI uri(String kind, int page) {
    return jetty.uri("/" + kind + "/" + page);
  }

  /**
   * Builds every page of handler "page", then passes over them until one whole pass is all hits (at
   * most five), so a measurement starts from a full cache. Returns the hits of the last pass.
   */
  long fill(LoadDriver driver) {
    return fill(driver, "cached");
  }

  /** {@link #fill(LoadDriver)} for the pages under {@code /<kind>/}. */
  long fill(LoadDriver driver, String kind) {
    long hits = 0;
    for (int pass = 0; pass < 5 && hits < pages.count(); pass++) {
      AtomicInteger next = new AtomicInteger();
      hits = driver.run("fill", 16, pages.count(), Duration.ofSeconds(60),
          () -> uri(kind, next.getAndIncrement() % pages.count())).label("HIT");
    }
    return hits;
  }

  @Override
  public void close() {
    jetty.close();
  }
}
