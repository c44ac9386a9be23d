package org.pagecache.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.store.LocalStore;
import org.pagecache.store.Store;
import org.pagecache.testing.FaultyStore;
import org.pagecache.testing.JettyServer;

/**
 * A save whose cache invalidation fails: the article is in the database, so the editor is told it
 * was saved and that the cache still shows the old text, instead of getting a 500.
 */
class EditorServletTest {
  private JettyServer jetty;

  @AfterEach
  void stop() throws Exception {
    if (jetty != null) {
      jetty.close();
    }
  }

  @Test
  void aSaveWhoseInvalidationLosesEveryCompareAndSetIsReportedAsSavedButNotInvalidated() {
    EditorClient editor = editorOf(losingEveryRace(new LocalStore()));

    HttpResponse<String> saved = editor.save(3, "Saved anyway", "The text.");

    assertEquals(303, saved.statusCode(), saved.body());
    String location = saved.headers().firstValue("Location").orElse("");
    assertTrue(location.endsWith("/cms/edit?id=3&saved=not-invalidated"), location);
    String page = editor.get(location).body();
    assertTrue(page.contains("Saved, but the cache could not invalidate article:3"), page);
    assertTrue(page.contains("value=\"Saved anyway\""), "the form shows the saved title: " + page);
  }

  @Test
  void aSaveWhileMemcachedIsDownIsReportedAsSavedButCacheUnavailable() {
    EditorClient editor = editorOf(new FaultyStore(new LocalStore(), () -> true));

    HttpResponse<String> saved = editor.save(4, "Saved offline", "The text.");

    assertEquals(303, saved.statusCode(), saved.body());
    String location = saved.headers().firstValue("Location").orElse("");
    assertTrue(location.endsWith("/cms/edit?id=4&saved=cache-unavailable"), location);
    String page = editor.get(location).body();
    assertTrue(page.contains("Saved, but memcached could not be reached"), page);
    assertTrue(page.contains("value=\"Saved offline\""), "the form shows the saved title: " + page);
  }

  /** The editor servlet behind the PageCache filter on {@code store}, as web.xml sets it up, minus the login. */
  private EditorClient editorOf(Store store) {
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment()
        .set("policies", "cms: enabled=false")
        .store(store)
        .build();
    jetty = JettyServer.start(ctx -> {
      ctx.setInitParameter("demo.delay.ms", "0");
      ctx.addEventListener(new DemoSite());
      JettyServer.filter(ctx, new PageCacheFilter(config));
      JettyServer.servlet(ctx, "cms", new EditorServlet(), "/cms", "/cms/*");
    });
    // Location may come back absolute or as a path, depending on Jetty's relative-redirect setting.
    return new EditorClient(path -> path.startsWith("http") ? URI.create(path) : jetty.uri(path), null, null);
  }

  /**
   * Every add and compare-and-set loses to another writer, as when many editors invalidate the
   * same tag at once: raising a tag's version gives up with IllegalStateException.
   */
  private static Store losingEveryRace(Store delegate) {
    return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "add", "cas" -> false;
          default -> forward(method, delegate, args);
        });
  }

  private static Object forward(Method method, Store delegate, Object[] args) throws Throwable {
    try {
      return method.invoke(delegate, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
