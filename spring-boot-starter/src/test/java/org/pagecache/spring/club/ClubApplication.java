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
    @GetMapping("/news/{id}")
    @CachedPage(handler = "news", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String news(@PathVariable String id) {
      return "<header>" + PageCache.fragment("greeting") + "</header><h1>News " + id + "</h1><p>built "
          + call("news " + id) + "</p><form method=post action=/logout>" + PageCache.fragment("csrf") + "</form>";
    }

    @GetMapping("/welcome")
    @CachedPage(handler = "welcome", ttl = "5m", spec = "signed-in=roles:MEMBER")
    public String welcome(Principal member) {
      call("welcome");
      return "<p>Welcome back, " + (member == null ? "guest" : member.getName()) + "</p>";
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
