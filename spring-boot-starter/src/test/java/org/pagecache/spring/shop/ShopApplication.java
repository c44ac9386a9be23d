package org.pagecache.spring.shop;

import java.security.Principal;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.pagecache.spring.CachedPage;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * A shop as a new Spring user writes it (issue 21): Spring Security's defaults (form login, CSRF
 * tokens, anonymous visitors, a saved request in the session when a protected page sends them to
 * the login form), news pages, a newsletter form with the CSRF token and a greeting for members.
 */
@SpringBootApplication
public class ShopApplication {
  /** Handler runs per page, so a test sees whether a response was built or came from the cache. */
  static final ConcurrentHashMap<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

  static int call(String page) {
    return CALLS.computeIfAbsent(page, p -> new AtomicInteger()).incrementAndGet();
  }

  @RestController
  public static class Pages {
    @GetMapping("/news/{id}")
    @CachedPage(handler = "news", ttl = "5m")
    public String news(@PathVariable String id) {
      return "<h1>News " + id + "</h1><p>built " + call("news " + id) + "</p>";
    }

    @GetMapping("/newsletter")
    @CachedPage(handler = "newsletter", ttl = "5m")
    public String newsletter(CsrfToken csrf) {
      call("newsletter");
      return "<form method=post action=/subscribe><input type=hidden name=\"" + csrf.getParameterName()
          + "\" value=\"" + csrf.getToken() + "\"><input name=email></form>";
    }

    @GetMapping("/greeting")
    @CachedPage(handler = "greeting", ttl = "5m")
    public String greeting(Principal member) {
      call("greeting");
      return member == null ? "<a href=/login>Sign in</a>" : "<p>Hello, " + member.getName() + "</p>";
    }

    @GetMapping("/account")
    public String account(Principal member) {
      return "<p>Orders of " + member.getName() + "</p>";
    }
  }

  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(auth -> auth.requestMatchers("/account").authenticated().anyRequest().permitAll())
        .formLogin(Customizer.withDefaults());
    return http.build();
  }

  @Bean
  InMemoryUserDetailsManager members() {
    return new InMemoryUserDetailsManager(User.withUsername("alice").password("{noop}alice-pw").roles("member").build());
  }
}
