package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Specification, on both stores, with {@code cache-control=honor}: the response's age counts. An
 * {@code Age} from upstream is spent lifetime, {@code Expires} is read against the response's own
 * {@code Date}, invalid dates and lifetimes mean "do not reuse", and the stored {@code Date} is
 * sent again with an {@code Age} that goes on from the age on arrival.
 */
class AgeAndDateSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private final MutableClock clock = new MutableClock();

  private static String httpDate(long millis) {
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(java.time.Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC));
  }

  private SiteUnderTest site(Backend backend, SiteServlets.Handler.Body body) {
    return sites.on(backend).clock(clock).set("policies", "page: cache-control=honor")
        .handler("page", SiteServlets.of(body), "/page/*").start();
  }

  @BothStores
  void anAgeFromUpstreamIsCountedAgainstMaxAge(Backend backend) {
    SiteUnderTest site = site(backend, (req, res, call) -> {
      res.setHeader("Cache-Control", "max-age=100");
      res.setHeader("Age", "60");
      res.getWriter().print("call " + call);
    });
    site.get("/page/a");
    clock.advance(Duration.ofSeconds(30));
    Response hit = site.get("/page/a");
    assertEquals("HIT", hit.xcache());
    assertEquals("90", hit.header("Age"), "60 on arrival, 30 stored");
    clock.advance(Duration.ofSeconds(15));
    assertEquals("MISS", site.get("/page/a").xcache(), "100 - 60 = 40 s fresh");
  }

  @BothStores
  void aResponseOlderThanItsLifetimeIsNotReused(Backend backend) {
    SiteUnderTest site = site(backend, (req, res, call) -> {
      res.setHeader("Cache-Control", "max-age=3600");
      res.setHeader("Age", "7200");
    });
    site.get("/page/old");
    site.get("/page/old");
    assertEquals(2, site.calls("page"));
  }

  @BothStores
  void expiresIsReadAgainstTheResponsesDate(Backend backend) {
    // The origin's clock is an hour fast: Expires is ten minutes after its Date, not seventy from now.
    SiteUnderTest site = site(backend, (req, res, call) -> {
      long originNow = clock.millis() + 3_600_000;
      res.setHeader("Date", httpDate(originNow));
      res.setHeader("Expires", httpDate(originNow + 600_000));
    });
    site.get("/page/e");
    clock.advance(Duration.ofMinutes(9));
    assertEquals("HIT", site.get("/page/e").xcache());
    clock.advance(Duration.ofMinutes(2));
    assertEquals("MISS", site.get("/page/e").xcache());
  }

  @BothStores
  void invalidExpiresFormsAreNotReused(Backend backend) {
    SiteUnderTest site = site(backend, (req, res, call) -> {
      if (req.getRequestURI().endsWith("hour")) {
        res.setHeader("Expires", "Thu, 18 Aug 2050 2:01:18 GMT");
      } else {
        res.addHeader("Expires", "Thu, 18 Aug 2050 02:01:18 GMT");
        res.addHeader("Expires", "Thu, 18 Aug 2050 02:01:19 GMT");
      }
    });
    site.get("/page/one-digit-hour");
    site.get("/page/one-digit-hour");
    site.get("/page/two-lines");
    site.get("/page/two-lines");
    assertEquals(4, site.calls("page"));
  }

  @BothStores
  void anUnreadableMaxAgeIsNotReused(Backend backend) {
    SiteUnderTest site = site(backend, (req, res, call) -> res.setHeader("Cache-Control", "max-age='3600'"));
    site.get("/page/q");
    Response second = site.get("/page/q");
    assertEquals(2, site.calls("page"), second.toString());
  }

  @BothStores
  void theStoredDateIsSentAgain(Backend backend) {
    String date = httpDate(clock.millis());
    SiteUnderTest site = site(backend, (req, res, call) -> {
      res.setHeader("Date", date);
      res.setHeader("Cache-Control", "max-age=600");
    });
    site.get("/page/d");
    clock.advance(Duration.ofSeconds(20));
    Response hit = site.get("/page/d");
    assertEquals("HIT", hit.xcache());
    assertEquals(date, hit.header("Date"));
    assertEquals("20", hit.header("Age"));
  }
}
