package org.pagecache.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import jakarta.servlet.DispatcherType;
import java.util.Map;
import org.pagecache.PageCache;
import org.pagecache.admin.PageCacheAdminServlet;
import org.pagecache.PageCacheConfig;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;
import org.pagecache.metrics.PageCacheMetrics;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * PageCache for a Spring MVC application: add the starter and {@code pagecache.memcached.servers}.
 *
 * <ul>
 *   <li>{@link PageCache} bean (refresh a handler, invalidate a tag, evict a page), configured from
 *       {@code pagecache.*} with the filter's parameter names;
 *   <li>the filter, async-supported, at Spring Security's filter order + 10 (after the security
 *       chain: access rules run before a stored page is served, and the request the application
 *       sees is the one Spring Security wrapped); handlers named after controller methods
 *       ({@link CachedPage});
 *   <li>the admin servlet at {@code pagecache.admin.path} (default {@code /cache-admin/*}); its
 *       role check is {@code request.isUserInRole}, which Spring Security answers;
 *   <li>with Spring Security, the evidence a signed-in member's page is theirs: their details in
 *       the page, the application's reads of {@code SecurityContextHolder} while it is built;
 *   <li>with Micrometer, the meters of {@link PageCacheMetrics}; with Actuator, the
 *       {@code pagecache} endpoint ({@link PageCacheEndpoint}) and each request observed in Boot's
 *       {@code ObservationRegistry} (spans with micrometer-tracing).
 * </ul>
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration", // Spring Boot 3
    "org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration"}) // Spring Boot 4
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnProperty(name = "pagecache.enabled", havingValue = "true", matchIfMissing = true)
public class PageCacheAutoConfiguration {
  /**
   * Spring Security's default filter order ({@code SecurityProperties.DEFAULT_FILTER_ORDER}, -100 on
   * every Boot line): a value, because the class moved between Boot 3 and 4.
   */
  static final int SECURITY_DEFAULT_FILTER_ORDER = -100;
  /** The ServletContext attribute the filter reads an ObservationRegistry from (docs/metrics.md). */
  static final String OBSERVATION_REGISTRY_ATTRIBUTE = "io.micrometer.observation.ObservationRegistry";

  @Bean
  @ConditionalOnBean(name = "requestMappingHandlerMapping")
  ControllerHandlers pageCacheControllerHandlers(
      @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mapping, Environment env) {
    return PageCacheSettingsException.check(() -> {
      EnvironmentSettings.checkNames(env);
      return new ControllerHandlers(mapping, EnvironmentSettings.cacheUnannotated(env));
    });
  }

  /** The starter's own key of {@code pagecache.policies} ({@code tags=}; {@code refreshed-by=} is the filter's). */
  @Bean
  PolicyRules pageCachePolicyRules(Environment env) {
    return PageCacheSettingsException.check(() -> PolicyRules.of(EnvironmentSettings.value(env, "policies")));
  }

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  PageCache pageCache(Environment env, ObjectProvider<ControllerHandlers> handlers, PolicyRules rules,
      ObjectProvider<CountSource> source, ObjectProvider<CountSink> sink,
      ObjectProvider<org.springframework.web.servlet.LocaleResolver> localeResolver) {
    ControllerHandlers h = handlers.getIfAvailable();
    PageCacheConfig config = PageCacheSettingsException.check(() -> {
      EnvironmentSettings.checkNames(env);
      // vary=language without languages=: the application's own, from its AcceptHeaderLocaleResolver
      String policies = LocaleLanguages.fill(PolicyText.merge(h != null ? h.policies() : Map.of(), rules.forFilter()),
          LocaleLanguages.of(localeResolver.getIfUnique()));
      if (h != null) {
        WriteTargets.check(h, rules, PolicyText.handlers(policies));
      }
      return EnvironmentSettings.config(env, policies, source.getIfAvailable(), sink.getIfAvailable());
    });
    return PageCache.start(config);
  }

  /** The {@link PageFragment} methods of the application's beans, registered with the cache; {@code @pageFragments} in templates. */
  @Bean
  PageFragments pageFragments(org.springframework.context.ApplicationContext context, PageCache cache) {
    return new PageFragments(context, cache);
  }

  /** Tags from {@link CachedPage#tags()} and refreshes after writes ({@link RefreshesPages}). */
  @Bean
  @ConditionalOnBean(name = "requestMappingHandlerMapping")
  WebMvcConfigurer pageCacheTagsAndRefreshes(ObjectProvider<PageCache> cache, ObjectProvider<ControllerHandlers> handlers,
      PolicyRules rules) {
    // Providers, not beans: the handler mapping that builds the interceptor list is what ControllerHandlers reads.
    TagsAndRefreshes interceptor = new TagsAndRefreshes(cache, handlers, rules);
    return new WebMvcConfigurer() {
      @Override
      public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(interceptor);
      }
    };
  }

  @Bean
  FilterRegistrationBean<SpringPageCacheFilter> pageCacheFilter(PageCache cache,
      ObjectProvider<ControllerHandlers> handlers, Environment env) {
    ControllerHandlers h = handlers.getIfAvailable(() -> null);
    SpringPageCacheFilter filter = new SpringPageCacheFilter(cache, h);
    if (h != null) {
      // evict(url) finds the handler a request would: a controller's only where the DispatcherServlet serves the path
      cache.handlersByPath(path -> filter.servedByDispatcher(path) ? h.handlerForPath(path) : null,
          path -> filter.servedByDispatcher(path) ? h.patternForPath(path) : null);
    }
    FilterRegistrationBean<SpringPageCacheFilter> reg = new FilterRegistrationBean<>(filter);
    reg.setName("pagecache");
    reg.addUrlPatterns("/*");
    reg.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC); // an ASYNC dispatch continues its build
    reg.setAsyncSupported(true);
    int security = env.getProperty("spring.security.filter.order", Integer.class, SECURITY_DEFAULT_FILTER_ORDER);
    reg.setOrder(env.getProperty("pagecache.filter.order", Integer.class, security + 10));
    return reg;
  }

  @Bean
  @ConditionalOnExpression("'${pagecache.admin.path:/cache-admin/*}'.trim() != 'none'")
  ServletRegistrationBean<PageCacheAdminServlet> pageCacheAdminServlet(Environment env) {
    String path = env.getProperty("pagecache.admin.path", "/cache-admin/*").trim();
    if (!path.startsWith("/")) {
      throw new PageCacheSettingsException(new IllegalArgumentException("pagecache.admin.path: '" + path
          + "' is not a URL pattern; use e.g. /cache-admin/*, or none to leave the admin servlet out"));
    }
    ServletRegistrationBean<PageCacheAdminServlet> reg = new ServletRegistrationBean<>(new PageCacheAdminServlet(), path);
    reg.setName("pagecache-admin");
    return reg;
  }

  /**
   * With Spring Security: a signed-in member's page built for their group is searched for their own
   * details ({@link VisitorDetails}), and reads of {@code SecurityContextHolder} by the application
   * during the build make it theirs ({@link SecurityContextWatch}); docs/fragments.md.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.security.core.context.SecurityContextHolder")
  static class SignedInEvidence {
    /** Static and a factory post-processor: the holder is wrapped before the beans that keep its strategy are made. */
    @Bean
    static BeanFactoryPostProcessor pageCacheSecurityContextWatch() {
      return factory -> SecurityContextWatch.install();
    }

    @Bean
    SmartInitializingSingleton pageCacheVisitorDetails(ObjectProvider<PageCache> cache) {
      return () -> cache.ifAvailable(c -> c.personalValues(new VisitorDetails()));
    }
  }

  /** Meters for the application's registry (Spring Boot binds every MeterBinder bean). */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  static class Metrics {
    @Bean
    PageCacheMetrics pageCacheMetrics(PageCache cache) {
      return new PageCacheMetrics(cache);
    }
  }

  /**
   * Each request as a Micrometer Observation in Boot's {@code ObservationRegistry}, with its lookup,
   * wait, build and store: micrometer-tracing (with a tracer: Brave or OpenTelemetry) turns them into
   * spans, the meter handler into timers. The filter finds the registry in the ServletContext, as a
   * plain Jakarta application puts it there (docs/metrics.md).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.micrometer.observation.ObservationRegistry")
  static class Observations {
    @Bean
    ServletContextInitializer pageCacheObservations(ObjectProvider<ObservationRegistry> registry) {
      return ctx -> registry.ifAvailable(r -> ctx.setAttribute(OBSERVATION_REGISTRY_ATTRIBUTE, r));
    }
  }

  /** The {@code pagecache} Actuator endpoint. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"org.springframework.boot.actuate.endpoint.annotation.Endpoint",
      "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"})
  static class Actuator {
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    PageCacheEndpoint pageCacheEndpoint(PageCache cache, ObjectProvider<ControllerHandlers> handlers) {
      ControllerHandlers h = handlers.getIfAvailable();
      return new PageCacheEndpoint(cache, h != null ? h.names() : java.util.List.of());
    }
  }
}
