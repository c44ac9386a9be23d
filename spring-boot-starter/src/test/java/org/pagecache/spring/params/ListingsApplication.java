package org.pagecache.spring.params;

import org.pagecache.spring.CachedPage;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A paged list read with {@code @RequestParam} and a search form bound to an object with
 * {@code @ModelAttribute} (the binder enumerates the parameter map), under {@code params.key=read}.
 */
@SpringBootApplication
public class ListingsApplication {
  /** The search form: Spring binds every request parameter whose name is a property. */
  public static class SearchForm {
    private String q = "";
    private int page = 1;

    public String getQ() {
      return q;
    }

    public void setQ(String q) {
      this.q = q;
    }

    public int getPage() {
      return page;
    }

    public void setPage(int page) {
      this.page = page;
    }
  }

  @RestController
  public static class Pages {
    @GetMapping("/list")
    @CachedPage(handler = "list", ttl = "5m")
    public String list(@RequestParam(defaultValue = "1") int page) {
      return "<p>list page " + page + "</p>";
    }

    @GetMapping("/search")
    @CachedPage(handler = "search", ttl = "5m")
    public String search(@ModelAttribute SearchForm form) {
      return "<p>results for '" + form.getQ() + "', page " + form.getPage() + "</p>";
    }
  }

  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(auth -> auth.anyRequest().permitAll());
    return http.build();
  }
}
