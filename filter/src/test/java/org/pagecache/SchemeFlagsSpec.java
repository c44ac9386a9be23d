package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (issue 35, class 3): the headers that make a request an https one
 * to some framework or container ({@code X-Forwarded-Ssl} for Spring's forwarded-header handling,
 * {@code X-Proxied-Https}, {@code Proxy-ssl-id} and {@code Proxy-auth-cert} for Jetty's
 * {@code ForwardedRequestCustomizer}, {@code Front-End-Https}, {@code X-Url-Scheme}) are part of
 * the key, as {@code X-Forwarded-Proto} is: a page built from one, by a filter after PageCache that
 * honours it, never reaches a request without it, nor the other way round.
 */
class SchemeFlagsSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private static final List<String[]> FLAGS = List.of(new String[] {"X-Forwarded-Ssl", "on"},
      new String[] {"Front-End-Https", "on"}, new String[] {"X-Url-Scheme", "https"},
      new String[] {"X-Proxied-Https", "on"}, new String[] {"Proxy-ssl-id", "a1b2c3"},
      new String[] {"Proxy-auth-cert", "MIIB"});

  /** The scheme as a forwarded-header filter placed after PageCache would make the application see it. */
  private static String scheme(HttpServletRequest req) {
    for (String[] flag : FLAGS) {
      if (req.getHeader(flag[0]) != null) {
        return "https";
      }
    }
    return req.getScheme();
  }

  /** A page whose links are absolute, built from the scheme the application sees. */
  private static SiteServlets.Handler links() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<a href=\"" + scheme(req) + "://www.example.com/next\">next</a>");
    });
  }

  @BothStores
  void xForwardedSslOnBuildsAPageOnlyItsSendersGet(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("links", links(), "/links").start();
    Response flagged = site.get("/links", "X-Forwarded-Ssl", "on");
    assertTrue(flagged.text().contains("https://"), flagged.text());
    Response plain = site.get("/links");
    assertEquals("MISS", plain.xcache(), "the flagged entry is not the plain visitors' page");
    assertTrue(plain.text().contains("http://www.example.com"), plain.text());
    assertEquals("HIT", site.get("/links").xcache());
    assertFalse(site.get("/links").text().contains("https://"));
    assertEquals("HIT", site.get("/links", "x-forwarded-SSL", "on").xcache(), "the name in any case is the same entry");
  }

  @BothStores
  void everySchemeFlagKeysThePageWhateverWasStoredFirst(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("links", links(), "/links").start();
    assertEquals("MISS", site.get("/links").xcache());
    for (String[] flag : FLAGS) {
      Response flagged = site.get("/links", flag[0], flag[1]);
      assertEquals("MISS", flagged.xcache(), flag[0] + " must not be answered with the plain page");
      assertTrue(flagged.text().contains("https://"), flag[0] + ": " + flagged.text());
      assertEquals("HIT", site.get("/links", flag[0], flag[1]).xcache(), flag[0] + " has an entry of its own");
      Response plain = site.get("/links");
      assertEquals("HIT", plain.xcache());
      assertFalse(plain.text().contains("https://"), flag[0] + " reached a plain visitor");
    }
    assertEquals(1 + FLAGS.size(), site.calls("links"));
  }

  @BothStores
  void aRedirectToHttpsMadeFromAFlagNeverReachesPlainVisitors(Backend backend) {
    // the canonical-URL redirect every framework makes absolute from the scheme it sees (a 301 is cached)
    SiteUnderTest site = sites.on(backend).handler("home", SiteServlets.of((req, res, call) -> {
      res.setStatus(301);
      res.setHeader("Location", scheme(req) + "://www.example.com/home/");
    }), "/home").start();
    Response attack = site.get("/home", "Front-End-Https", "on");
    assertEquals("https://www.example.com/home/", attack.header("Location"));
    Response plain = site.get("/home");
    assertEquals("MISS", plain.xcache());
    assertEquals("http://www.example.com/home/", plain.header("Location"), "an http-only site's visitor is not sent to https");
    assertEquals("HIT", site.get("/home").xcache());
    Response proxied = site.get("/home", "Proxy-auth-cert", "MIIB");
    assertEquals("MISS", proxied.xcache(), "another flag, another entry");
    assertEquals("https://www.example.com/home/", proxied.header("Location"));
    assertEquals("http://www.example.com/home/", site.get("/home").header("Location"));
  }
}
