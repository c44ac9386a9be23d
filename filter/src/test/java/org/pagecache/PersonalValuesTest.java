package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.internal.html.Html;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;

/**
 * Issue 35, class 5 on a plain Jakarta site (embedded Jetty, real HTTP, real memcached): members of
 * one group share its pages unless a page shows a member's own details. The application's security
 * filter (before PageCache) declares each member's full name and email for the request with
 * {@link PageCache#personal} and keeps the member in a thread-local of its own, which the handlers
 * read past the request: a page that shows the name (however escaped) or the email, or one built
 * from the thread-local (reported with {@link PageCache#principalRead}), stays its member's.
 */
class PersonalValuesTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);

  record Member(String login, String fullName, String email, int unread) {}

  static final Map<String, Member> DIRECTORY = Map.of(
      "alice", new Member("alice", "Alice Liddell", "a.liddell@example.org", 3),
      "bob", new Member("bob", "Bob Hatter", "bob.h@example.org", 0),
      "dara", new Member("dara", "Dara O'Brien", "dara@example.org", 7));

  /** The application's "current member", as many applications keep one for their views. */
  static final ThreadLocal<Member> CURRENT = new ThreadLocal<>();

  /** The application's accessor of its thread-local: it tells the cache the member was read. */
  static Member currentMember() {
    PageCache.principalRead();
    return CURRENT.get();
  }

  /** Before PageCache: the member named by a trusted proxy's header, in the member role; their details declared. */
  static Filter security() {
    return (request, response, chain) -> {
      HttpServletRequest req = (HttpServletRequest) request;
      Member member = req.getHeader("X-Member") == null ? null : DIRECTORY.get(req.getHeader("X-Member"));
      if (member == null) {
        chain.doFilter(req, response);
        return;
      }
      PageCache.personal(req, member.fullName(), member.email());
      CURRENT.set(member);
      try {
        chain.doFilter(new HttpServletRequestWrapper(req) {
          @Override
          public Principal getUserPrincipal() {
            return member::login;
          }

          @Override
          public String getRemoteUser() {
            return member.login();
          }

          @Override
          public boolean isUserInRole(String role) {
            return "member".equals(role);
          }
        }, response);
      } finally {
        CURRENT.remove();
      }
    };
  }

  private CachedSite site() {
    return sites.open().before(security())
        .set("policies", "greeting: signed-in=roles:member; mail: signed-in=roles:member;"
            + " inbox: signed-in=roles:member; news: signed-in=roles:member")
        .handler("greeting", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          Member m = CURRENT.get(); // read past the request, and not reported: only the body shows it
          res.getWriter().print("<p>Welcome back, " + (m == null ? "guest" : Html.escape(m.fullName())) + "</p>");
        }), "/greeting")
        .handler("mail", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          Member m = CURRENT.get();
          res.getWriter().print("<p>We write to <b>" + (m == null ? "nobody" : m.email()) + "</b></p>");
        }), "/mail")
        .handler("inbox", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          Member m = currentMember(); // the application's own data keyed by the member: no name in the page
          res.getWriter().print("<p>You have " + (m == null ? 0 : m.unread()) + " unread messages</p>");
        }), "/inbox")
        .handler("news", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<h1>News for members</h1><p>built " + call + "</p>");
        }), "/news/*")
        .start();
  }

  @Test
  void aPageShowingTheMembersDeclaredFullNameIsNotSharedWithTheGroup() {
    CachedSite site = site();
    HttpResponse<byte[]> hers = site.get("/greeting", "X-Member", "alice");
    assertTrue(Http.text(hers).contains("Welcome back, Alice Liddell"), Http.text(hers));

    HttpResponse<byte[]> his = site.get("/greeting", "X-Member", "bob");
    assertNotEquals("HIT", xCache(his));
    assertTrue(Http.text(his).contains("Welcome back, Bob Hatter"), Http.text(his));
    assertFalse(Http.text(his).contains("Alice"), Http.text(his));
    assertEquals(1L, site.cache.stats("greeting").sessionBypasses().get("personal-value"),
        () -> "evidence: " + site.cache.stats("greeting").sessionBypasses());
  }

  @Test
  void aNameTheViewEscapedIsFoundAsWritten() {
    CachedSite site = site();
    HttpResponse<byte[]> hers = site.get("/greeting", "X-Member", "dara");
    assertTrue(Http.text(hers).contains("Dara O&#39;Brien"), Http.text(hers));

    HttpResponse<byte[]> his = site.get("/greeting", "X-Member", "bob");
    assertNotEquals("HIT", xCache(his));
    assertFalse(Http.text(his).contains("Dara"), Http.text(his));
  }

  @Test
  void aPageShowingTheMembersEmailIsNotShared() {
    CachedSite site = site();
    assertTrue(Http.text(site.get("/mail", "X-Member", "alice")).contains("a.liddell@example.org"));

    HttpResponse<byte[]> his = site.get("/mail", "X-Member", "bob");
    assertNotEquals("HIT", xCache(his));
    assertFalse(Http.text(his).contains("liddell"), Http.text(his));
    assertEquals(1L, site.cache.stats("mail").sessionBypasses().get("personal-value"));
  }

  @Test
  void aPageBuiltFromTheApplicationsCurrentMemberIsNotShared() {
    CachedSite site = site();
    assertTrue(Http.text(site.get("/inbox", "X-Member", "alice")).contains("You have 3 unread messages"));

    HttpResponse<byte[]> his = site.get("/inbox", "X-Member", "bob");
    assertNotEquals("HIT", xCache(his));
    assertTrue(Http.text(his).contains("You have 0 unread messages"), Http.text(his));
    assertEquals(1L, site.cache.stats("inbox").sessionBypasses().get("principal-thread-local"),
        () -> "evidence: " + site.cache.stats("inbox").sessionBypasses());
  }

  @Test
  void pagesThatShowNothingOfTheMemberAreSharedEveryMemberHits() {
    CachedSite site = site();
    assertEquals("MISS", xCache(site.get("/news/1", "X-Member", "alice")));
    int hits = 0;
    String[] members = {"bob", "dara", "alice", "bob", "dara", "alice"};
    for (String member : members) {
      if ("HIT".equals(xCache(site.get("/news/1", "X-Member", member)))) {
        hits++;
      }
    }
    assertEquals(members.length, hits, () -> "evidence: " + site.cache.stats("news").sessionBypasses());
    assertEquals(1, site.calls("news"));
  }

  private static String xCache(HttpResponse<byte[]> res) {
    return res.headers().firstValue("X-Cache").orElse("(none)");
  }
}
