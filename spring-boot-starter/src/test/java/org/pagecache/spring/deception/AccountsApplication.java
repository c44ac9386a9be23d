package org.pagecache.spring.deception;

import java.util.concurrent.atomic.AtomicInteger;
import org.pagecache.spring.CachedPage;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A site with personal pages under path prefixes and a policy for its stylesheets
 * ({@code assets: paths=*.css, cookies=ignore}), the setting of web cache deception (issue 35,
 * class 1): the visitor is known by a cookie the pages read themselves.
 */
@SpringBootApplication
public class AccountsApplication {
  static final AtomicInteger THEME_CALLS = new AtomicInteger();

  @RestController
  public static class Pages {
    /** Unannotated: not cached (pagecache.unannotated=bypass), whatever its URL ends with. */
    @GetMapping("/account/**")
    public String account(@CookieValue(name = "user", required = false) String user) {
      return "<p>Orders of " + (user == null ? "nobody" : user) + "</p>";
    }

    /** Cached, with the default cookies=bypass: a visitor with a cookie goes to the handler. */
    @GetMapping("/profile/**")
    @CachedPage(handler = "profile", ttl = "5m")
    public String profile(@CookieValue(name = "user", required = false) String user) {
      return "<p>Profile of " + (user == null ? "nobody" : user) + "</p>";
    }

    /** The catch-all: the least specific mapping, so paths=*.css claims its stylesheets. */
    @GetMapping("/**")
    public String theme() {
      return "body { color: black } /* call " + THEME_CALLS.incrementAndGet() + " */";
    }
  }

  /** A plain servlet beside the DispatcherServlet, at a path prefix: its own reports, read from the visitor's cookie. */
  @Bean
  ServletRegistrationBean<HttpServlet> reports() {
    HttpServlet reports = new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String user = req.getCookies() == null ? null : Arrays.stream(req.getCookies())
            .filter(c -> c.getName().equals("user")).map(Cookie::getValue).findFirst().orElse(null);
        res.setContentType("text/html;charset=UTF-8");
        res.getWriter().print("<p>Reports of " + (user == null ? "nobody" : user) + "</p>");
      }
    };
    ServletRegistrationBean<HttpServlet> reg = new ServletRegistrationBean<>(reports, "/reports/*");
    reg.setName("reports");
    return reg;
  }

  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(auth -> auth.anyRequest().permitAll());
    return http.build();
  }
}
