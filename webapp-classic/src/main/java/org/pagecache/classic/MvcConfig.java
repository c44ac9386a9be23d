package org.pagecache.classic;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.ViewResolver;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.view.InternalResourceViewResolver;

/**
 * Spring MVC as classic WARs set it up: a DispatcherServlet from web.xml, annotated controllers, and
 * JSP views under WEB-INF through {@link InternalResourceViewResolver}, so every view is a
 * {@code RequestDispatcher.forward} to a JSP.
 */
@Configuration
@EnableWebMvc
@ComponentScan("org.pagecache.classic")
public class MvcConfig {
  @Bean
  public ViewResolver jspViews() {
    return new InternalResourceViewResolver("/WEB-INF/jsp/", ".jsp");
  }
}
