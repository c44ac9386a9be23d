package org.pagecache.spring.testapp;

import java.util.concurrent.Callable;
import org.pagecache.spring.CachedPage;
import org.pagecache.spring.RefreshesPages;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
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

    @GetMapping("/slow/{id}")
    @CachedPage(handler = "slow")
    public Callable<String> slow(@PathVariable String id) {
      return () -> page("slow " + id) + " " + "s".repeat(3000);
    }

    /** Completed on another thread, as a message listener or a remote call would complete it. */
    @GetMapping("/deferred/{id}")
    @CachedPage(handler = "deferred")
    public org.springframework.web.context.request.async.DeferredResult<String> deferred(@PathVariable String id) {
      org.springframework.web.context.request.async.DeferredResult<String> result =
          new org.springframework.web.context.request.async.DeferredResult<>();
      java.util.concurrent.CompletableFuture.runAsync(() -> result.setResult(page("deferred " + id)));
      return result;
    }
  }

  /** Owners and pets, as in Spring PetClinic: pages of one owner, a list, and writes that change them. */
  @RestController
  public static class Owners {
    static final java.util.Map<String, String> NAMES = new java.util.concurrent.ConcurrentHashMap<>();

    @GetMapping("/owners/{ownerId}")
    @CachedPage(handler = "owner", tags = "owner:{ownerId}")
    public String owner(@PathVariable String ownerId) {
      return page("owner " + ownerId + " " + NAMES.getOrDefault(ownerId, "?"));
    }

    @GetMapping("/owners")
    @CachedPage(handler = "ownerList")
    public String list() {
      return page("owners " + new java.util.TreeMap<>(NAMES));
    }

    /** The form of the write below: an edit form, not cached unless asked for. */
    @GetMapping("/owners/{ownerId}/rename")
    public String renameForm(@PathVariable String ownerId) {
      return page("rename form " + ownerId + " " + NAMES.getOrDefault(ownerId, "?"));
    }

    /** A write: 200 when renamed, 400 (nothing changed) for an empty name. */
    @PostMapping("/owners/{ownerId}/rename")
    @RefreshesPages(tags = "owner:{ownerId}", handlers = "ownerList")
    public org.springframework.http.ResponseEntity<String> rename(@PathVariable String ownerId, @RequestParam String name) {
      if (name.isBlank()) {
        return org.springframework.http.ResponseEntity.badRequest().body("a name is required");
      }
      NAMES.put(ownerId, name);
      return org.springframework.http.ResponseEntity.ok("renamed");
    }

    /** Cached and tagged by configuration only (pagecache.policies in StarterTest). */
    @GetMapping("/pets/{petId}")
    public String pet(@PathVariable String petId) {
      return page("pet " + petId);
    }

    @GetMapping("/pets")
    public String pets() {
      return page("pets");
    }

    @PostMapping("/pets/{petId}")
    public String savePet(@PathVariable String petId) {
      return "saved";
    }

    /** One method, two media types: the page follows the negotiated type. */
    @GetMapping(value = "/negotiated", produces = {"text/html", "application/json"})
    @CachedPage(handler = "negotiated")
    public String negotiated(jakarta.servlet.http.HttpServletRequest request) {
      String accept = String.valueOf(request.getHeader("Accept"));
      return accept.contains("json") ? "{\"page\":\"" + page("json") + "\"}" : "<p>" + page("html") + "</p>";
    }
  }

  /** A page rendered by a view, as a template-based application renders all of its pages. */
  @org.springframework.stereotype.Controller
  public static class Views {
    @GetMapping("/greeting")
    @CachedPage(handler = "greeting")
    public String greeting() {
      return "greetingView"; // resolved by name, through Spring's content-negotiating view resolver
    }
  }

  @Bean
  org.springframework.web.servlet.View greetingView() {
    return new org.springframework.web.servlet.View() {
      @Override
      public String getContentType() {
        return "text/html";
      }

      @Override
      public void render(java.util.Map<String, ?> model, jakarta.servlet.http.HttpServletRequest request,
          jakarta.servlet.http.HttpServletResponse response) throws java.io.IOException {
        response.setContentType("text/html;charset=UTF-8");
        response.getWriter().write("<p>" + page("greeting") + "</p>");
      }
    };
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
        // (and the tests' writes to owners and pets are sent by a script, not from a form).
        .csrf(csrf -> csrf.ignoringRequestMatchers("/cache-admin/**", "/actuator/**", "/owners/**", "/pets/**"));
    return http.build();
  }

  @Bean
  InMemoryUserDetailsManager users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("editor").password("{noop}editor-pw").roles("pagecache-admin").build(),
        User.withUsername("reader").password("{noop}reader-pw").roles("reader").build());
  }
}
