package org.pagecache.spring.club;

import java.security.Principal;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.pagecache.PageCache;
import org.pagecache.spring.CachedPage;
import org.pagecache.spring.PageFragment;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
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
 * a page whose controller reads the principal (never shared).
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

  @Bean
  InMemoryUserDetailsManager members() {
    return new InMemoryUserDetailsManager(
        User.withUsername("alice").password("{noop}alice-pw").roles("MEMBER").build(),
        User.withUsername("bob").password("{noop}bob-pw").roles("MEMBER").build());
  }
}
