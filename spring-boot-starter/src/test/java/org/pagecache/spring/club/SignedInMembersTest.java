package org.pagecache.spring.club;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.PageCache;
import org.pagecache.spring.MemcachedProperties;
import org.pagecache.spring.SecurityForms;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Issue 30 on a Spring Security site (embedded Tomcat, real HTTP, real memcached): signed-in
 * members are served the members' cached page with their own greeting and CSRF field filled in by
 * {@code @PageFragment} methods; nothing of one member reaches another or an anonymous visitor; a
 * controller that reads the principal is never shared; the members' hit ratio, measured.
 */
@SpringBootTest(classes = ClubApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "pagecache.namespace=club-test")
class SignedInMembersTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @DynamicPropertySource
  static void memcached(DynamicPropertyRegistry registry) {
    MemcachedProperties.register(registry, memcached);
  }

  @LocalServerPort
  int port;

  @Autowired
  PageCache pageCache;

  @Test
  void membersShareTheCachedPageEachWithTheirOwnGreetingAndToken() {
    String alice = signIn("alice", "alice-pw");
    String bob = signIn("bob", "bob-pw");

    HttpResponse<byte[]> hers = get("/news/shared-1", "Cookie", alice);
    assertTrue(Http.text(hers).contains("Signed in as alice"), Http.text(hers));
    HttpResponse<byte[]> his = get("/news/shared-1", "Cookie", bob);
    assertEquals("HIT", xCache(his), () -> "evidence: " + pageCache.stats("news").sessionBypasses()
        + " " + his.headers().firstValue("Cache-Status").orElse(""));
    assertTrue(Http.text(his).contains("Signed in as bob"), Http.text(his));
    assertFalse(Http.text(his).contains("alice"), Http.text(his));
    assertNotEquals(SecurityForms.csrfToken(Http.text(hers)), SecurityForms.csrfToken(Http.text(his)), "each member's own CSRF token");

    HttpResponse<byte[]> anonymous = get("/news/shared-1");
    assertEquals("MISS", xCache(anonymous), "anonymous visitors never get the members' page");
    assertTrue(Http.text(anonymous).contains("Sign in"));
    assertFalse(Http.text(anonymous).contains("alice") || Http.text(anonymous).contains("bob"));
    assertEquals(2, ClubApplication.CALLS.get("news shared-1").get());
  }

  @Test
  void aTemplateWritesThePlaceholderWithTheExpressionTheDocsGiveForThymeleaf() {
    String alice = signIn("alice", "alice-pw");
    String bob = signIn("bob", "bob-pw");

    HttpResponse<byte[]> hers = get("/styled/1", "Cookie", alice);
    HttpResponse<byte[]> his = get("/styled/1", "Cookie", bob);

    assertEquals("<header>Signed in as alice</header><h1>Styled 1</h1>", Http.text(hers));
    assertEquals("HIT", xCache(his));
    assertEquals("<header>Signed in as bob</header><h1>Styled 1</h1>", Http.text(his));
    assertEquals(1, ClubApplication.CALLS.get("styled 1").get());
  }

  @Test
  void aControllerThatReadsThePrincipalIsNeverShared() {
    String alice = signIn("alice", "alice-pw");
    String bob = signIn("bob", "bob-pw");

    assertTrue(Http.text(get("/welcome", "Cookie", alice)).contains("Welcome back, alice"));
    HttpResponse<byte[]> his = get("/welcome", "Cookie", bob);
    assertTrue(Http.text(his).contains("Welcome back, bob"), Http.text(his));
    assertEquals("BYPASS", xCache(his));
    assertTrue(pageCache.stats("welcome").sessionBypasses().get("principal") >= 1,
        () -> "evidence: " + pageCache.stats("welcome").sessionBypasses());
  }

  @Test
  void aViewShowingTheFullNameFromTheMembersUserDetailsIsNotShared() {
    String alice = signIn("alice", "alice-pw");
    String bob = signIn("bob", "bob-pw");

    assertTrue(Http.text(get("/hello", "Cookie", alice)).contains("Welcome back, Alice Liddell"));
    HttpResponse<byte[]> his = get("/hello", "Cookie", bob);
    assertNotEquals("HIT", xCache(his), "Alice's page is hers");
    assertTrue(Http.text(his).contains("Welcome back, Bob Hatter"), Http.text(his));
    assertFalse(Http.text(his).contains("Alice"), Http.text(his));
    assertEquals(1L, pageCache.stats("hello").sessionBypasses().get("personal-value"),
        () -> "evidence: " + pageCache.stats("hello").sessionBypasses());
  }

  @Test
  void aViewShowingTheMembersEmailIsNotShared() {
    String alice = signIn("alice", "alice-pw");
    String bob = signIn("bob", "bob-pw");

    assertTrue(Http.text(get("/contact", "Cookie", alice)).contains("a.liddell@example.org"));
    HttpResponse<byte[]> his = get("/contact", "Cookie", bob);
    assertNotEquals("HIT", xCache(his));
    assertFalse(Http.text(his).contains("liddell"), Http.text(his));
    assertEquals(1L, pageCache.stats("contact").sessionBypasses().get("personal-value"));
  }

  @Test
  void anOpenIdMemberWhoseNameIsAnOpaqueSubjectIsFoundByTheNameTheProviderGave() {
    String carol = signIn("carol", "carol-pw");
    String alice = signIn("alice", "alice-pw");

    HttpResponse<byte[]> hers = get("/hi", "Cookie", carol);
    assertEquals("<p>Hi, Carol</p>", Http.text(hers), "the principal's name is the subject, not in the page");
    HttpResponse<byte[]> others = get("/hi", "Cookie", alice);
    assertNotEquals("HIT", xCache(others));
    assertEquals("<p>Hi, Alice Liddell</p>", Http.text(others));
    assertEquals(1L, pageCache.stats("hi").sessionBypasses().get("personal-value"),
        () -> "evidence: " + pageCache.stats("hi").sessionBypasses());
  }

  @Test
  void aControllerReadingSecurityContextHolderIsNotShared() {
    String alice = signIn("alice", "alice-pw");
    String bob = signIn("bob", "bob-pw");

    assertEquals("<p>You have 3 unread messages</p>", Http.text(get("/inbox", "Cookie", alice)));
    HttpResponse<byte[]> his = get("/inbox", "Cookie", bob);
    assertNotEquals("HIT", xCache(his));
    assertEquals("<p>You have 0 unread messages</p>", Http.text(his));
    assertEquals(1L, pageCache.stats("inbox").sessionBypasses().get("principal-thread-local"),
        () -> "evidence: " + pageCache.stats("inbox").sessionBypasses());
    assertEquals("MISS", xCache(get("/inbox")), "anonymous visitors are cached as before");
    assertEquals("HIT", xCache(get("/inbox")));
  }

  @Test
  void aControllerGivenTheAuthenticationPrincipalIsNotShared() {
    String alice = signIn("alice", "alice-pw");
    String bob = signIn("bob", "bob-pw");

    assertEquals("<p>Member since 1865</p>", Http.text(get("/card", "Cookie", alice)));
    HttpResponse<byte[]> his = get("/card", "Cookie", bob);
    assertNotEquals("HIT", xCache(his));
    assertEquals("<p>Member since 1871</p>", Http.text(his));
    assertEquals(1L, pageCache.stats("card").sessionBypasses().get("principal-thread-local"),
        () -> "evidence: " + pageCache.stats("card").sessionBypasses());
  }

  /**
   * The evidence finds nothing where there is nothing: once the members' and the anonymous pages are
   * built, every member (form login or OpenID, whose details are all looked for) and every anonymous
   * visitor hits, hit ratio 1.00.
   */
  @Test
  void onceBuiltEveryMembersAndAnonymousRequestIsAHit() {
    String[] members = {signIn("alice", "alice-pw"), signIn("bob", "bob-pw"), signIn("carol", "carol-pw")};
    for (int page = 0; page < 5; page++) {
      assertEquals("MISS", xCache(get("/news/built-" + page, "Cookie", members[page % 3])));
      assertEquals("MISS", xCache(get("/news/built-" + page)));
    }
    int requests = 0;
    int hits = 0;
    for (int round = 0; round < 3; round++) {
      for (int page = 0; page < 5; page++) {
        for (String visitor : new String[] {members[0], members[1], members[2], null}) {
          HttpResponse<byte[]> r = visitor == null ? get("/news/built-" + page) : get("/news/built-" + page, "Cookie", visitor);
          requests++;
          hits += "HIT".equals(xCache(r)) ? 1 : 0;
        }
      }
    }
    assertEquals("1.00", String.format("%.2f", (double) hits / requests),
        () -> "evidence: " + pageCache.stats("news").sessionBypasses());
  }

  /**
   * Members and anonymous visitors each reading 8 of 30 pages in a seeded random order, 4 rounds:
   * the members' hit ratio against the anonymous one (the goal: at least 0.8 times).
   */
  @Test
  void membersHitAtLeastFourFifthsAsOftenAsAnonymousVisitors() {
    String[] members = {signIn("alice", "alice-pw"), signIn("bob", "bob-pw")};
    Random random = new Random(30);
    long[] hits = new long[2];
    long[] requests = new long[2];
    for (int round = 0; round < 4; round++) {
      for (int visitor = 0; visitor < 8; visitor++) {
        for (int page = 0; page < 8; page++) {
          String path = "/news/mix-" + random.nextInt(30);
          boolean member = visitor % 2 == 0;
          HttpResponse<byte[]> r = member ? get(path, "Cookie", members[visitor / 2 % 2]) : get(path);
          int group = member ? 1 : 0;
          requests[group]++;
          if ("HIT".equals(xCache(r))) {
            hits[group]++;
          }
        }
      }
    }
    double anonymous = (double) hits[0] / requests[0];
    double signedIn = (double) hits[1] / requests[1];
    System.out.printf("pagecache issue 30: hit ratio anonymous %.3f (%d/%d), signed-in members %.3f (%d/%d), ratio %.3f%n",
        anonymous, hits[0], requests[0], signedIn, hits[1], requests[1], signedIn / anonymous);
    assertTrue(signedIn >= 0.8 * anonymous, "signed-in " + signedIn + ", anonymous " + anonymous);
  }

  private String signIn(String user, String password) {
    return SecurityForms.signIn(uri("/"), user, password);
  }

  private HttpResponse<byte[]> get(String path, String... headers) {
    return Http.get(uri(path), headers);
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static String xCache(HttpResponse<byte[]> res) {
    return res.headers().firstValue("X-Cache").orElse("(none)");
  }
}
