package org.pagecache.spring;

import java.util.Arrays;

/**
 * Auto-configuration classes of Spring MVC found by name, so one test source compiles and runs on
 * every supported Spring Boot line (Boot 4 moved them to {@code org.springframework.boot.webmvc.autoconfigure}).
 */
final class BootLine {
  private static final String[] PACKAGES = {
      "org.springframework.boot.autoconfigure.web.servlet.", // Spring Boot 3
      "org.springframework.boot.webmvc.autoconfigure."}; // Spring Boot 4

  private BootLine() {}

  /** The Spring MVC auto-configurations the starter runs after: the DispatcherServlet and WebMvc ones. */
  static Class<?>[] springMvc() {
    return Arrays.stream(new String[] {"DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration"})
        .map(BootLine::find).toArray(Class<?>[]::new);
  }

  private static Class<?> find(String simpleName) {
    for (String p : PACKAGES) {
      try {
        return Class.forName(p + simpleName);
      } catch (ClassNotFoundException e) {
        // not this line
      }
    }
    throw new IllegalStateException(simpleName + " is in none of " + Arrays.toString(PACKAGES));
  }
}
