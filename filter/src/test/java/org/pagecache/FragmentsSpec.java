package org.pagecache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpSession;
import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.GzipMembers;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (fast tier): signed-in visitors are served the shared page of their
 * group with their own fragments filled in (docs/fragments.md), and nothing of one visitor (name,
 * greeting, CSRF token, cart) reaches another: not through a shell, not through a renderer that
 * fails, not through a shell that read the principal. Plain Jakarta: a "security" filter before
 * PageCache signs members in from their session (principal, roles), as Spring Security does.
 */
class FragmentsSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /** The signed-in user's name, copied by the security filter where a handler can read it past the wrapper. */
  static final ThreadLocal<String> CURRENT_USER = new ThreadLocal<>();

  /** Before PageCache: the principal and roles of a signed-in member, from the session. */
  static Filter security() {
    return (request, response, chain) -> {
      HttpServletRequest req = (HttpServletRequest) request;
      HttpSession session = req.getSession(false);
      Object member = session == null ? null : session.getAttribute("member");
      Object role = session == null ? null : session.getAttribute("role");
      HttpServletRequest passed = member == null ? req : new HttpServletRequestWrapper(req) {
        @Override
        public Principal getUserPrincipal() {
          return () -> (String) member;
        }

        @Override
        public String getRemoteUser() {
          return (String) member;
        }

        @Override
        public boolean isUserInRole(String r) {
          return r.equals(role);
        }
      };
      CURRENT_USER.set((String) member);
      try {
        chain.doFilter(passed, response);
      } finally {
        CURRENT_USER.remove();
      }
    };
  }

  final AtomicInteger cartRenders = new AtomicInteger();

  private SiteUnderTest site(Backend backend, String policies) {
    return site(backend, policies, s -> {});
  }

  private SiteUnderTest site(Backend backend, String policies, java.util.function.Consumer<SiteUnderTest> more) {
    SiteUnderTest site = sites.on(backend).before(security())
        .set("policies", "setup: enabled=false; " + (policies.isEmpty() ? "news: signed-in=roles:member|admin" : policies)
            + "; peek: signed-in=roles:member; leak: signed-in=roles:member; broken: signed-in=roles:member"
            + "; plain: signed-in=roles:member; long: signed-in=roles:member"
            + "; themed: signed-in=roles:member, cookies=vary:theme; sniff: signed-in=roles:member, cookies=vary:theme")
        .handler("setup", SiteServlets.of((req, res, call) -> {
          HttpSession session = req.getSession(true);
          for (String name : List.of("member", "role", "cart")) {
            if (req.getParameter(name) != null) {
              session.setAttribute(name, req.getParameter(name));
            }
          }
          res.getWriter().print("ok");
        }), "/setup")
        .handler("news", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<header>" + PageCache.fragment("greeting") + "</header><main>news " + req.getRequestURI()
              + " built " + call + "</main><form>" + PageCache.fragment("csrf") + "</form><aside>"
              + PageCache.fragment("cart") + "</aside>");
        }), "/news/*")
        .handler("edit", edit(), "/edit")
        .handler("plain", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<header>" + PageCache.fragment("greeting") + "</header><main>built " + call + "</main>");
        }), "/plain/*")
        .handler("long", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print(PageCache.fragment("greeting") + PageCache.fragment("cart") + "<main>built " + call + " "
              + "<p>The same long article for every member of the group.</p>".repeat(60) + "</main><form>"
              + PageCache.fragment("csrf") + "</form>[" + PageCache.fragment("fails") + "]" + PageCache.fragment("cart"));
        }), "/long/*")
        .handler("themed", SiteServlets.of((req, res, call) -> {
          String theme = "plain"; // found as Spring's WebUtils.getCookie finds it: every name looked at
          for (jakarta.servlet.http.Cookie c : req.getCookies() == null ? new jakarta.servlet.http.Cookie[0] : req.getCookies()) {
            if (c.getName().equals("theme")) {
              theme = c.getValue();
            }
          }
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<body class=" + theme + "><header>" + PageCache.fragment("greeting") + "</header>built "
              + call + "</body>");
        }), "/themed")
        .handler("sniff", SiteServlets.of((req, res, call) -> {
          int length = 0; // the session cookie's value: not in the key
          for (jakarta.servlet.http.Cookie c : req.getCookies()) {
            length += c.getValue().length();
          }
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>" + (length > 0 ? "remembered" : "new") + "</p>");
        }), "/sniff")
        .handler("peek", SiteServlets.of((req, res, call) -> {
          Principal user = req.getUserPrincipal();
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>Welcome back, " + (user == null ? "guest" : user.getName()) + "</p>");
        }), "/peek")
        .handler("leak", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>Hello " + CURRENT_USER.get() + "!</p>"); // past the wrapper: only the body shows it
        }), "/leak")
        .handler("broken", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<header>" + PageCache.fragment("greeting") + "</header>[" + PageCache.fragment("fails")
              + "][" + PageCache.fragment("unknown") + "]");
        }), "/broken");
    more.accept(site);
    site.start();
    site.cache.fragment("greeting", req -> {
      Principal p = req.getUserPrincipal();
      return p == null ? "<a href=/signin>Sign in</a>" : "Signed in as " + p.getName();
    });
    site.cache.fragment("csrf", req -> {
      HttpSession s = req.getSession(false);
      if (s == null) {
        return "";
      }
      Object token = s.getAttribute("csrf");
      if (token == null) {
        token = UUID.randomUUID().toString();
        s.setAttribute("csrf", token);
      }
      return "<input type=hidden name=_csrf value=\"" + token + "\">";
    });
    site.cache.fragment("cart", Duration.ofMinutes(1), req -> req.getRemoteUser(), req -> {
      cartRenders.incrementAndGet();
      HttpSession s = req.getSession(false);
      Object cart = s == null ? null : s.getAttribute("cart");
      return cart == null ? "empty" : "Cart: " + cart;
    });
    site.cache.fragment("fails", req -> {
      throw new IllegalStateException("no cart for " + req.getRemoteUser());
    });
    return site;
  }

  /** A form whose POST changes article 7 and redirects to it. */
  private static SiteServlets.Handler edit() {
    SiteServlets.Handler edit = SiteServlets.of((req, res, call) -> res.getWriter().print("form"));
    edit.writes.set((req, res, call) -> res.sendRedirect("/news/7"));
    return edit;
  }

  private static String signIn(SiteUnderTest site, String member, String role, String cart) {
    Response r = site.get("/setup?member=" + member + "&role=" + role + (cart == null ? "" : "&cart=" + cart));
    Matcher m = Pattern.compile("JSESSIONID=([^;]+)").matcher(String.valueOf(r.header("Set-Cookie")));
    assertTrue(m.find(), "the setup page gives a session: " + r.header("Set-Cookie"));
    return "JSESSIONID=" + m.group(1);
  }

  @BothStores
  void membersShareTheShellOfTheirGroupEachWithTheirOwnParts(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", "umbrella-7731");
    String bob = signIn(site, "bob", "member", null);

    Response hers = site.get("/news/1", "Cookie", alice);
    assertEquals("MISS", hers.xcache());
    assertTrue(hers.text().contains("Signed in as alice"), hers.text());
    assertTrue(hers.text().contains("Cart: umbrella-7731"));
    Response his = site.get("/news/1", "Cookie", bob);
    assertEquals("HIT", his.xcache(), () -> "evidence: " + site.cache.stats("news").sessionBypasses());
    assertTrue(his.text().contains("Signed in as bob"), his.text());
    assertTrue(his.text().contains("empty"));
    assertFalse(his.text().contains("alice"), his.text());
    assertFalse(his.text().contains("umbrella"), his.text());
    assertNotEquals(token(hers), token(his), "each has their own CSRF token");
    assertEquals(token(hers), token(site.get("/news/1", "Cookie", alice)), "and keeps it");

    Response anonymous = site.get("/news/1");
    assertEquals("MISS", anonymous.xcache(), "anonymous visitors never get a group's page");
    assertTrue(anonymous.text().contains("Sign in"));
    assertFalse(anonymous.text().contains("alice") || anonymous.text().contains("bob"));
    assertEquals(2, site.calls("news"));
    assertEquals(2, site.cache.stats("news").signedInHits(), "Bob's request and Alice's second");
    assertEquals(3, site.cache.stats("news").signedInRequests());
  }

  /** params.key=read (issue 47): a group's page is keyed as the anonymous one, on what it reads, plus the group. */
  @BothStores
  void underParamsKeyReadJunkParametersGetTheGroupsPageAndAnEvictOfTheUrlReachesIt(Backend backend) {
    SiteUnderTest site = site(backend, "", s -> s.set("params.key", "read"));
    String alice = signIn(site, "alice", "member", null);
    assertEquals("MISS", site.get("/news/7?_=1", "Cookie", alice).xcache());
    Response junk = site.get("/news/7?cb=2", "Cookie", alice);
    assertEquals("HIT", junk.xcache());
    assertTrue(junk.text().contains("Signed in as alice"), junk.text());
    Response anonymous = site.get("/news/7?cb=3");
    assertEquals("MISS", anonymous.xcache(), "anonymous visitors never get a group's page");
    assertFalse(anonymous.text().contains("alice"), anonymous.text());
    assertTrue(site.cache.evict("http://localhost/news/7").existed());
    Response after = site.get("/news/7?v=4", "Cookie", alice);
    assertEquals("MISS", after.xcache(), "the evict of the URL reached the group's page the junk was served");
    assertTrue(after.text().contains("Signed in as alice"), after.text());
  }

  @BothStores
  void anEvictOfAUrlMakesEveryGroupsPageOfItRebuild(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", null);
    String root = signIn(site, "root", "admin", null);
    site.get("/news/7", "Cookie", alice);
    site.get("/news/7", "Cookie", root);
    site.get("/news/8", "Cookie", alice);
    Response before = site.get("/news/7", "Cookie", alice);
    assertEquals("HIT", before.xcache());

    site.cache.evict("http://localhost/news/7");
    Response members = site.get("/news/7", "Cookie", alice);
    assertEquals("MISS", members.xcache(), "the members' page of the URL is rebuilt");
    assertNotEquals(built(before), built(members), members.text());
    assertEquals("MISS", site.get("/news/7", "Cookie", root).xcache(), "and the admins'");
    assertEquals("HIT", site.get("/news/8", "Cookie", alice).xcache(), "another URL's group page is not touched");
    assertEquals("HIT", site.get("/news/7", "Cookie", alice).xcache());

    assertEquals(302, site.send("POST", "/edit", "Cookie", alice).status(), "a write that redirects to /news/7");
    Response afterWrite = site.get("/news/7", "Cookie", alice);
    assertEquals("MISS", afterWrite.xcache(), "a write evicts the groups' pages of the URL it names");
    assertNotEquals(built(members), built(afterWrite));
    assertEquals("HIT", site.get("/news/8", "Cookie", alice).xcache());
  }

  @org.junit.jupiter.api.Test
  void anEvictOnAnotherFrontendReachesTheGroupsPagesHereWithinTheTrustWindowAtNoCostToOtherHits() {
    org.pagecache.testing.MutableClock clock = new org.pagecache.testing.MutableClock();
    String namespace = "ge" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    SiteUnderTest here = site(Backend.MEMCACHED, "", s -> s.clock(clock).set("namespace", namespace));
    SiteUnderTest there = site(Backend.MEMCACHED, "", s -> s.clock(clock).set("namespace", namespace));
    String alice = signIn(here, "alice", "member", null);
    Response before = here.get("/plain/1", "Cookie", alice);
    here.get("/plain/2", "Cookie", alice);
    clock.advance(Duration.ofSeconds(2)); // past near.trust and tag.cache
    long trips = here.roundTrips();
    assertEquals("HIT", here.get("/plain/2", "Cookie", alice).xcache());
    assertEquals(1, here.roundTrips() - trips, "a near hit of a group's page: the handler's confirmation only, no URL tag read");

    there.cache.evict("http://localhost/plain/1");
    assertEquals("HIT", here.get("/plain/1", "Cookie", alice).xcache(), "inside the trust window this frontend serves what it holds");
    clock.advance(Duration.ofSeconds(1));
    Response after = here.get("/plain/1", "Cookie", alice);
    assertEquals("MISS", after.xcache(), "the other frontend's evict reached the members' page here");
    assertNotEquals(built(before), built(after));
    trips = here.roundTrips();
    assertEquals("HIT", here.get("/plain/2", "Cookie", alice).xcache(), "another URL's group page stays");
    assertEquals(1, here.roundTrips() - trips, "read again once after the evictions key changed: one round trip, URL tag included");
    assertEquals("HIT", here.get("/plain/1", "Cookie", alice).xcache());
  }

  @BothStores
  void groupsByRoleGetPagesOfTheirOwn(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", null);
    String root = signIn(site, "root", "admin", null);

    site.get("/news/2", "Cookie", alice);
    Response admins = site.get("/news/2", "Cookie", root);
    assertEquals("MISS", admins.xcache(), "an admin's group is another key");
    assertTrue(admins.text().contains("Signed in as root"));
    assertEquals("HIT", site.get("/news/2", "Cookie", alice).xcache());
  }

  @BothStores
  void aShellThatReadThePrincipalIsNeverShared(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", null);
    String bob = signIn(site, "bob", "member", null);

    Response hers = site.get("/peek", "Cookie", alice);
    assertTrue(hers.text().contains("Welcome back, alice"));
    Response his = site.get("/peek", "Cookie", bob);
    assertEquals("BYPASS", his.xcache(), "the handler's signed-in visitors now go past the cache");
    assertTrue(his.text().contains("Welcome back, bob"), his.text());
    assertFalse(his.text().contains("alice"));
    assertEquals(2, site.calls("peek"));
    assertEquals(1L, site.cache.stats("peek").sessionBypasses().get("principal"));
    assertEquals(1L, site.cache.stats("peek").sessionBypasses().get("signed-in:principal"));
    assertEquals("MISS", site.get("/peek").xcache(), "anonymous visitors are cached as before");
    assertEquals("HIT", site.get("/peek").xcache());
  }

  @BothStores
  void aCookieInTheKeyIsNotPersonalButAnyOtherCookiesValueIs(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", null);
    String bob = signIn(site, "bob", "member", null);

    Response hers = site.get("/themed", "Cookie", alice + "; theme=dark");
    assertTrue(hers.text().startsWith("<body class=dark><header>Signed in as alice"), hers.text());
    Response his = site.get("/themed", "Cookie", bob + "; theme=dark");
    assertEquals("HIT", his.xcache(), () -> "evidence: " + site.cache.stats("themed").sessionBypasses());
    assertTrue(his.text().startsWith("<body class=dark><header>Signed in as bob"), his.text());
    Response light = site.get("/themed", "Cookie", bob + "; theme=light");
    assertEquals("MISS", light.xcache(), "the cookie's value keys the page");
    assertTrue(light.text().startsWith("<body class=light>"), light.text());
    assertEquals(null, site.cache.stats("themed").sessionBypasses().get("cookies"));

    site.get("/sniff", "Cookie", alice + "; theme=dark");
    assertEquals("BYPASS", site.get("/sniff", "Cookie", bob + "; theme=dark").xcache(),
        "a build that read the session cookie's value stays its visitor's");
    assertEquals(1L, site.cache.stats("sniff").sessionBypasses().get("cookies"));
  }

  @BothStores
  void aUsersNameInTheShellIsFoundInTheBody(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", null);
    String bob = signIn(site, "bob", "member", null);

    assertTrue(site.get("/leak", "Cookie", alice).text().contains("Hello alice!"));
    Response his = site.get("/leak", "Cookie", bob);
    assertTrue(his.text().contains("Hello bob!"), his.text());
    assertFalse(his.text().contains("alice"));
    assertEquals(1L, site.cache.stats("leak").sessionBypasses().get("principal-name"));
  }

  @BothStores
  void aRendererThatFailsGivesAnEmptyPartNeverAnothersAndNoError(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", null);
    String bob = signIn(site, "bob", "member", null);

    Response hers = site.get("/broken", "Cookie", alice);
    assertEquals(200, hers.status());
    assertEquals("<header>Signed in as alice</header>[][]", hers.text());
    Response his = site.get("/broken", "Cookie", bob);
    assertEquals(200, his.status());
    assertEquals("HIT", his.xcache());
    assertEquals("<header>Signed in as bob</header>[][]", his.text());
    assertEquals(4, site.cache.stats("broken").fragmentFailures(), "two failing parts on each of two serves");
    assertEquals(6, site.cache.stats("broken").fragments());
  }

  @BothStores
  void aPageWithFragmentsIsValidatedByItsOwnRenderedBody(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", null);
    String bob = signIn(site, "bob", "member", null);

    Response hers = site.get("/news/3", "Cookie", alice);
    String etag = hers.header("ETag");
    assertNotNull(etag);
    assertEquals(null, hers.header("Content-Encoding"), "stored and sent identity");
    Response his = site.get("/news/3", "Cookie", bob, "If-None-Match", etag, "Accept-Encoding", "gzip");
    assertEquals(200, his.status(), "Alice's validator does not match Bob's page");
    assertTrue(his.text().contains("Signed in as bob"));
    Response head = site.head("/news/3", "Cookie", bob);
    assertEquals("HIT", head.xcache());
    assertEquals(String.valueOf(his.body().length), head.header("Content-Length"), "HEAD: the length of Bob's page");
  }

  @BothStores
  void aGzipClientGetsOneGzipMemberOfExactlyThePageItsVisitorGetsInIdentity(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", "umbrella-7731");
    String bob = signIn(site, "bob", "member", "kettle-0042");
    site.get("/long/1", "Cookie", alice);

    Response hersPlain = site.get("/long/1", "Cookie", alice);
    Response hers = site.get("/long/1", "Cookie", alice, "Accept-Encoding", "gzip");
    Response his = site.get("/long/1", "Cookie", bob, "Accept-Encoding", "gzip");
    Response hisPlain = site.get("/long/1", "Cookie", bob);

    assertEquals("HIT", hers.xcache());
    assertEquals("HIT", his.xcache());
    assertEquals("gzip", hers.header("Content-Encoding"));
    assertEquals(null, hersPlain.header("Content-Encoding"), "a client without gzip gets identity, as before");
    assertTrue(hers.header("Vary").contains("Accept-Encoding"), hers.header("Vary"));
    assertTrue(hersPlain.header("Vary").contains("Accept-Encoding"), hersPlain.header("Vary"));
    assertEquals(String.valueOf(hers.body().length), hers.header("Content-Length"));
    assertTrue(hers.body().length < hersPlain.body().length / 4, hers.body().length + " of " + hersPlain.body().length);
    assertEquals(hersPlain.text(), new String(GzipMembers.gunzip(hers.body()), UTF_8));
    assertEquals(hersPlain.text(), new String(GzipMembers.inflateOneMember(hers.body()), UTF_8));
    assertEquals(hisPlain.text(), new String(GzipMembers.inflateOneMember(his.body()), UTF_8));
    String herPage = hersPlain.text();
    String hisPage = hisPlain.text();
    assertTrue(herPage.startsWith("Signed in as aliceCart: umbrella-7731<main>"), herPage);
    assertTrue(herPage.endsWith("[]Cart: umbrella-7731"), herPage);
    assertTrue(hisPage.startsWith("Signed in as bobCart: kettle-0042<main>"), hisPage);
    assertFalse(hisPage.contains("alice") || hisPage.contains("umbrella"), hisPage);
    assertFalse(herPage.contains("bob") || herPage.contains("kettle"), herPage);
    assertNotEquals(token(hersPlain), token(hisPlain));

    assertEquals(hersPlain.header("ETag").replaceAll("\"$", "-gz\""), hers.header("ETag"), "a tag of its own per coding");
    assertEquals(304, site.get("/long/1", "Cookie", alice, "Accept-Encoding", "gzip", "If-None-Match", hers.header("ETag"))
        .status(), "her own unchanged page revalidates");
    assertEquals(200, site.get("/long/1", "Cookie", bob, "Accept-Encoding", "gzip", "If-None-Match", hers.header("ETag"))
        .status(), "her validator does not match his page");
    Response head = site.head("/long/1", "Cookie", alice, "Accept-Encoding", "gzip");
    assertEquals("gzip", head.header("Content-Encoding"));
    assertEquals(String.valueOf(hers.body().length), head.header("Content-Length"), "HEAD: the length of her gzip page");
    Response range = site.get("/long/1", "Cookie", alice, "Accept-Encoding", "gzip", "Range", "bytes=0-19");
    assertEquals(206, range.status());
    assertEquals(null, range.header("Content-Encoding"), "a range is of the identity page");
    assertEquals(herPage.substring(0, 20), range.text());
  }

  @BothStores
  void aRendererThatFailsStillGivesAGzipClientAValidBody(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", null);

    Response built = site.get("/long/2", "Cookie", alice, "Accept-Encoding", "gzip");
    Response hit = site.get("/long/2", "Cookie", alice, "Accept-Encoding", "gzip");

    for (Response r : List.of(built, hit)) {
      assertEquals(200, r.status());
      assertEquals("gzip", r.header("Content-Encoding"), r.xcache());
      String page = new String(GzipMembers.inflateOneMember(r.body()), UTF_8);
      assertTrue(page.endsWith("</form>[]empty"), page);
    }
    assertEquals("HIT", hit.xcache());
    assertEquals(2, site.cache.stats("long").fragmentFailures(), "the failing part, on each serve");
  }

  @BothStores
  void aFragmentKeptInMemcachedIsRenderedOncePerUserWithinItsTtl(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = signIn(site, "alice", "member", "umbrella-7731");
    String bob = signIn(site, "bob", "member", "kettle-0042");

    site.get("/news/4", "Cookie", alice);
    site.get("/news/4", "Cookie", alice);
    Response his = site.get("/news/4", "Cookie", bob);
    assertTrue(his.text().contains("Cart: kettle-0042"), his.text());
    assertFalse(his.text().contains("umbrella"));
    assertTrue(site.get("/news/4", "Cookie", alice).text().contains("Cart: umbrella-7731"));
    assertEquals(2, cartRenders.get(), "once for Alice, once for Bob");
  }

  @BothStores
  void underTheDefaultSignedInVisitorsBypassWithTheirPartsFilledIn(Backend backend) {
    SiteUnderTest site = site(backend, "news: signed-in=bypass");
    String alice = signIn(site, "alice", "member", null);

    Response hers = site.get("/news/5", "Cookie", alice);
    assertEquals("BYPASS", hers.xcache());
    assertTrue(hers.text().contains("Signed in as alice"), hers.text());
    assertFalse(hers.text().contains("pagecache:fragment"));
  }

  @BothStores
  void fragmentsAndSignedInVisitorsAreCountedPerHandlerInTheMetrics(Backend backend) {
    SiteUnderTest site = site(backend, "");
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    new org.pagecache.metrics.PageCacheMetrics(site.cache).bindTo(registry);
    String alice = signIn(site, "alice", "member", null);

    site.get("/news/6", "Cookie", alice);
    site.get("/news/6", "Cookie", alice);
    site.get("/news/6");

    assertEquals(9.0, registry.get("pagecache.fragments").tag("cache", "news").functionTimer().count(), "3 parts on 3 serves");
    assertEquals(2.0, registry.get("pagecache.signed.in.requests").tag("cache", "news").functionCounter().count());
    assertEquals(1.0, registry.get("pagecache.signed.in.hits").tag("cache", "news").functionCounter().count());
    assertEquals(0.5, site.cache.stats("news").signedInHitRatio());
    assertEquals(0.0, site.cache.stats("news").anonymousHitRatio(), "the anonymous request was a miss");
  }

  private static String built(Response r) {
    Matcher m = Pattern.compile("built \\d+").matcher(r.text());
    assertTrue(m.find(), r.text());
    return m.group();
  }

  private static String token(Response r) {
    Matcher m = Pattern.compile("name=_csrf value=\"([^\"]+)\"").matcher(r.text());
    assertTrue(m.find(), r.text());
    return m.group(1);
  }
}
