package org.pagecache.spring.testapp;

import java.util.concurrent.Callable;
import org.pagecache.spring.CachedPage;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** A small Spring MVC application with Spring Security for the starter's tests. */
@SpringBootApplication
public class TestApplication {
  /** Counts handler runs per path, so tests see whether a response was built or served from the cache. */
  static final java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> CALLS = new java.util.concurrent.ConcurrentHashMap<>();

  static String page(String name) {
    return name + " call " + CALLS.computeIfAbsent(name, n -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
  }

  @RestController
  public static class Pages {
    @GetMapping("/a/{id}")
    @CachedPage(handler = "alpha", ttl = "5m")
    public String alpha(@PathVariable String id) {
      return page("alpha " + id);
    }

    @GetMapping("/b/{id}")
    @CachedPage(handler = "beta", ttl = "2m")
    public String beta(@PathVariable String id) {
      return page("beta " + id);
    }

    @GetMapping("/plain")
    public String plain() {
      return page("plain");
    }

    @GetMapping("/members")
    @CachedPage(handler = "members", spec = "authorized=allow")
    public String members() {
      return page("members");
    }

    @GetMapping("/slow")
    @CachedPage(handler = "slow")
    public Callable<String> slow() {
      return () -> page("slow");
    }
  }

  @RestController
  @CachedPage(ttl = "1m")
  public static class ClassLevel {
    @GetMapping("/c/one")
    public String one() {
      return page("one");
    }
  }

  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(auth -> auth
            .requestMatchers("/members", "/cache-admin/**").authenticated()
            .anyRequest().permitAll())
        .httpBasic(Customizer.withDefaults())
        // Without Spring Security's no-store header, a filter placed before the security chain would
        // store and serve /members to anyone: the ordering test sees the leak itself.
        .headers(headers -> headers.cacheControl(cache -> cache.disable()))
        // Actuator and the admin API are called by scripts with credentials, not from a browser session.
        .csrf(csrf -> csrf.ignoringRequestMatchers("/cache-admin/**", "/actuator/**"));
    return http.build();
  }

  @Bean
  InMemoryUserDetailsManager users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("editor").password("{noop}editor-pw").roles("pagecache-admin").build(),
        User.withUsername("reader").password("{noop}reader-pw").roles("reader").build());
  }
}
