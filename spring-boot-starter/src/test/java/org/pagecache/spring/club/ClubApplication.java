package org.pagecache.spring.club;

import jakarta.servlet.Filter;
import java.security.Principal;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.pagecache.PageCache;
import org.pagecache.spring.CachedPage;
import org.pagecache.spring.PageFragment;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.core.oidc.user.DefaultOidcUser;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * A members' club on Spring Security's defaults (issue 30): news pages cached per role with the
 * member's greeting and the CSRF field of the sign-out form as fragments ({@link PageFragment}), and
 * a page whose controller reads the principal (never shared). Issue 35: members with their own
 * details (a {@link Member} with a full name and email; an OpenID Connect member whose name is the
 * provider's subject) and pages that show them or read Spring Security's context in other ways.
 */
@SpringBootApplication
public class ClubApplication {
  static final ConcurrentHashMap<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

  static int call(String page) {
    return CALLS.computeIfAbsent(page, p -> new AtomicInteger()).incrementAndGet();
  }

  @RestController
  public static class Pages {
    private final org.springframework.context.ApplicationContext context;

    public Pages(org.springframework.context.ApplicationContext context) {
      this.context = context;
    }

    @GetMapping("/news/{id}")
    @CachedPage(handler = "news", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String news(@PathVariable String id) {
      return "<header>" + PageCache.fragment("greeting") + "</header><h1>News " + id + "</h1><p>built "
          + call("news " + id) + "</p><form method=post action=/logout>" + PageCache.fragment("csrf") + "</form>";
    }

    /**
     * A page from a template whose placeholder is written as a Thymeleaf template writes it,
     * {@code <span th:utext="${@pageFragments.marker('greeting')}"></span>}: the expression is
     * evaluated as Thymeleaf's Spring dialect evaluates {@code ${...}} (SpEL, {@code @name} resolved
     * as a bean of the application context), without Thymeleaf itself on the class path.
     */
    @GetMapping("/styled/{id}")
    @CachedPage(handler = "styled", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String styled(@PathVariable String id) {
      call("styled " + id);
      return SpelTemplate.render("<header>${@pageFragments.marker('greeting')}</header><h1>Styled " + id + "</h1>",
          context);
    }

    /** Issue 35: the member's full name from their own UserDetails, read past the request (the application's thread-local). */
    @GetMapping("/hello")
    @CachedPage(handler = "hello", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String hello() {
      return "<p>Welcome back, " + (CurrentMember.get() instanceof Member m ? HtmlUtils.htmlEscape(m.fullName()) : "guest") + "</p>";
    }

    /** The member's email, read past the request. */
    @GetMapping("/contact")
    @CachedPage(handler = "contact", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String contact() {
      return "<p>We write to " + (CurrentMember.get() instanceof Member m ? m.email() : "nobody") + "</p>";
    }

    /** The member's given name as the OpenID provider gave it (an OidcUser), read past the request. */
    @GetMapping("/hi")
    @CachedPage(handler = "hi", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String hi() {
      Object member = CurrentMember.get();
      String name = member instanceof OidcUser oidc ? oidc.getGivenName() : member instanceof Member m ? m.fullName() : "guest";
      return "<p>Hi, " + HtmlUtils.htmlEscape(name) + "</p>";
    }

    /** The controller reads SecurityContextHolder and shows the member's data from the application's own store: no name in the page. */
    @GetMapping("/inbox")
    @CachedPage(handler = "inbox", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String inbox() {
      call("inbox");
      Authentication auth = SecurityContextHolder.getContext().getAuthentication();
      return "<p>You have " + UNREAD.getOrDefault(auth == null ? "" : auth.getName(), 0) + " unread messages</p>";
    }

    /** The member handed to the controller by Spring Security's argument resolver, which reads the holder. */
    @GetMapping("/card")
    @CachedPage(handler = "card", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String card(@AuthenticationPrincipal Member member) {
      return "<p>Member since " + (member == null ? "-" : member.since()) + "</p>";
    }

    @GetMapping("/welcome")
    @CachedPage(handler = "welcome", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String welcome(Principal member) {
      call("welcome");
      return "<p>Welcome back, " + (member == null ? "guest" : member.getName()) + "</p>";
    }
  }

  /** ${EXPRESSION} replaced by its SpEL value, {@code @bean} names resolved in the context: Thymeleaf-Spring's way. */
  static final class SpelTemplate {
    private static final java.util.regex.Pattern EXPRESSION = java.util.regex.Pattern.compile("\\$\\{(.+?)\\}");

    static String render(String template, org.springframework.context.ApplicationContext context) {
      org.springframework.expression.spel.support.StandardEvaluationContext evaluation =
          new org.springframework.expression.spel.support.StandardEvaluationContext();
      evaluation.setBeanResolver(new org.springframework.context.expression.BeanFactoryResolver(context));
      org.springframework.expression.spel.standard.SpelExpressionParser parser =
          new org.springframework.expression.spel.standard.SpelExpressionParser();
      return EXPRESSION.matcher(template).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
          String.valueOf(parser.parseExpression(m.group(1)).getValue(evaluation))));
    }
  }

  /** The members' own parts of every page. */
  @Component
  public static class Parts {
    @PageFragment("greeting")
    String greeting(Principal member) {
      return member == null ? "<a href=/login>Sign in</a>" : "Signed in as " + HtmlUtils.htmlEscape(member.getName());
    }

    @PageFragment("csrf")
    String csrf(CsrfToken token) {
      return token == null ? "" : "<input type=hidden name=\"" + token.getParameterName() + "\" value=\""
          + token.getToken() + "\">";
    }
  }

  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(auth -> auth.anyRequest().permitAll()).formLogin(Customizer.withDefaults());
    return http.build();
  }

  /** The club's own UserDetails: the member's full name and email beside the login name. */
  public record Member(String username, String fullName, String email, int since) implements UserDetails {
    @Override
    public String getUsername() {
      return username;
    }

    @Override
    public String getPassword() {
      return null;
    }

    @Override
    public Collection<? extends GrantedAuthority> getAuthorities() {
      return AuthorityUtils.createAuthorityList("ROLE_MEMBER");
    }
  }

  static final Map<String, Integer> UNREAD = Map.of("alice", 3, "bob", 0);

  /**
   * Members sign in with the form: alice and bob from the club's directory (a {@link Member}), carol
   * as an OpenID Connect provider would have signed her in: an {@link OidcUser} whose name is the
   * provider's opaque subject.
   */
  @Bean
  AuthenticationProvider members() {
    Map<String, Member> directory = Map.of(
        "alice", new Member("alice", "Alice Liddell", "a.liddell@example.org", 1865),
        "bob", new Member("bob", "Bob Hatter", "b.hatter@example.org", 1871));
    return new AuthenticationProvider() {
      @Override
      public Authentication authenticate(Authentication login) {
        String user = login.getName();
        if (!(user + "-pw").equals(String.valueOf(login.getCredentials()))) {
          throw new BadCredentialsException("bad credentials");
        }
        Object principal = directory.containsKey(user) ? directory.get(user) : "carol".equals(user) ? carol() : null;
        if (principal == null) {
          throw new BadCredentialsException("bad credentials");
        }
        return UsernamePasswordAuthenticationToken.authenticated(principal, null,
            AuthorityUtils.createAuthorityList("ROLE_MEMBER"));
      }

      @Override
      public boolean supports(Class<?> type) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(type);
      }
    };
  }

  static OidcUser carol() {
    Instant now = Instant.now();
    OidcIdToken token = OidcIdToken.withTokenValue("id-token").subject("248289761001").issuedAt(now)
        .expiresAt(now.plusSeconds(3600)).claim("name", "Carol Lewis").claim("given_name", "Carol")
        .claim("family_name", "Lewis").claim("email", "c.lewis@example.org").build();
    return new DefaultOidcUser(AuthorityUtils.createAuthorityList("ROLE_MEMBER"), token);
  }

  /**
   * The application's "current member", copied from Spring Security's context by a filter before
   * PageCache's (as many applications keep one for their views): read past the request and past
   * the holder, so only the page's body can show what the view took from it.
   */
  static final class CurrentMember {
    private static final ThreadLocal<Object> MEMBER = new ThreadLocal<>();

    static Object get() {
      return MEMBER.get();
    }
  }

  @Bean
  FilterRegistrationBean<Filter> currentMember() {
    FilterRegistrationBean<Filter> reg = new FilterRegistrationBean<>((request, response, chain) -> {
      Authentication auth = SecurityContextHolder.getContext().getAuthentication();
      CurrentMember.MEMBER.set(auth == null ? null : auth.getPrincipal());
      try {
        chain.doFilter(request, response);
      } finally {
        CurrentMember.MEMBER.remove();
      }
    });
    reg.setOrder(-95); // after Spring Security's chain (-100), before PageCache's (-90)
    return reg;
  }
}
