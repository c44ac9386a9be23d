package org.pagecache;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;
import org.pagecache.counters.Counters;
import org.pagecache.internal.capture.RequestBody;
import org.pagecache.internal.capture.SurrogateKeys;
import org.pagecache.internal.stats.PageTrace;
import org.pagecache.internal.stats.PageTracer;

/**
 * The servlet filter: serves pages from memcached and stores the pages handlers write.
 *
 * <p>In web.xml:
 * <pre>{@code
 * <filter>
 *   <filter-name>pagecache</filter-name>
 *   <filter-class>org.pagecache.PageCacheFilter</filter-class>
 *   <init-param><param-name>memcached.servers</param-name><param-value>127.0.0.1:11211</param-value></init-param>
 *   <init-param><param-name>policies</param-name><param-value>article: ttl=5m, grace=10m</param-value></init-param>
 *   <async-supported>true</async-supported>
 * </filter>
 * <filter-mapping>
 *   <filter-name>pagecache</filter-name><url-pattern>/*</url-pattern>
 *   <dispatcher>REQUEST</dispatcher><dispatcher>ASYNC</dispatcher>
 * </filter-mapping>
 * }</pre>
 * In code: {@code context.addFilter(new FilterHolder(new PageCacheFilter(config)), "/*",
 * EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC))}.
 *
 * <p>Runs once per request: a forward or include that passes the filter again is not captured twice.
 * An ASYNC dispatch continues the build of the request that asked for it, so async responses that
 * end in a dispatch (Spring MVC's {@code Callable}, {@code DeferredResult}) are cached; without the
 * ASYNC mapping they go out uncached.
 * It publishes its {@link PageCache} in the ServletContext for the admin and counters servlets.
 */
public class PageCacheFilter implements Filter {
  private static final String FILTERED = PageCacheFilter.class.getName() + ".filtered";
  /** Where an application puts its Micrometer registry (PageCacheMetrics.REGISTRY_ATTRIBUTE). */
  private static final String METER_REGISTRY_ATTRIBUTE = "io.micrometer.core.instrument.MeterRegistry";
  private static final String METRICS_BINDER = "org.pagecache.metrics.PageCacheMetrics";
  /** Where an application puts its Micrometer ObservationRegistry: each request is then observed (docs/metrics.md). */
  static final String OBSERVATION_REGISTRY_ATTRIBUTE = "io.micrometer.observation.ObservationRegistry";
  private static final String OBSERVATIONS = "org.pagecache.metrics.PageObservations";

  private PageCacheConfig preset;
  private PageCache given;
  private PageCache cache;
  private PageFlow flow;
  private PageTracer tracer = PageTracer.NONE;
  private boolean owner;

  /** For web.xml: configured from init-params, system properties and the environment. */
  public PageCacheFilter() {
  }

  /** For registration in code. */
  public PageCacheFilter(PageCacheConfig config) {
    this.preset = config;
  }

  /**
   * For a cache the application started and closes itself (the Spring Boot starter's bean): the
   * filter publishes and uses it, and leaves closing it to the application.
   */
  public PageCacheFilter(PageCache cache) {
    this.given = cache;
  }

  @Override
  public void init(FilterConfig filterConfig) throws ServletException {
    PageCache existing = PageCache.from(filterConfig.getServletContext());
    if (given != null && existing == null) {
      given.attach(filterConfig.getServletContext());
      filterConfig.getServletContext().setAttribute(PageCache.CONTEXT_ATTRIBUTE, given);
      filterConfig.getServletContext().setAttribute(Counters.class.getName(), given.counters());
      cache = given;
    } else if (existing != null) {
      cache = existing; // a second mapping of the filter in the same application shares the cache
    } else {
      PageCacheConfig config;
      try {
        config = preset != null ? preset : PageCacheConfig.from(filterConfig::getInitParameter);
        // The application's counter source and sink, set by a ServletContextListener (docs/counters.md).
        ServletContext ctx = filterConfig.getServletContext();
        config = config.withCounting((CountSource) ctx.getAttribute(CountSource.class.getName()),
            (CountSink) ctx.getAttribute(CountSink.class.getName()));
      } catch (IllegalArgumentException e) {
        throw new ServletException(e.getMessage(), e);
      }
      cache = PageCache.start(config);
      cache.attach(filterConfig.getServletContext());
      filterConfig.getServletContext().setAttribute(PageCache.CONTEXT_ATTRIBUTE, cache);
      filterConfig.getServletContext().setAttribute(Counters.class.getName(), cache.counters());
      owner = true;
      bindMetrics(filterConfig.getServletContext());
    }
    flow = new PageFlow(cache.engine, cache::evict, cache::refreshHandler);
    tracer = tracer(filterConfig.getServletContext());
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest req && response instanceof HttpServletResponse res
        && request.getDispatcherType() == DispatcherType.ASYNC) {
      flow.asyncDispatch(req.getHeader(BackgroundRebuilds.HEADER) == null ? req : BackgroundRebuilds.withoutHeader(req),
          toClient(res), chain);
      return;
    }
    if (!(request instanceof HttpServletRequest req) || !(response instanceof HttpServletResponse res)
        || request.getAttribute(FILTERED) != null) {
      chain.doFilter(request, response);
      return;
    }
    request.setAttribute(FILTERED, Boolean.TRUE);
    if (req.getHeader(BackgroundRebuilds.HEADER) != null) {
      // This JVM's own request for a stale page's rebuild, if its secret is right; never seen past the filter.
      BackgroundRebuilds.HandOff handOff = cache.engine.background.claim(req.getHeader(BackgroundRebuilds.HEADER));
      HttpServletRequest hidden = BackgroundRebuilds.withoutHeader(req);
      if (handOff != null) {
        flow.rebuild(hidden, toClient(res), chain, handOff);
      } else {
        handle(hidden, res, chain);
      }
      return;
    }
    handle(req, res, chain);
  }

  /** A visitor's request; on HTTP/2 a GET or HEAD whose input may be looked at for a body ({@link RequestBody}). */
  private void handle(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest watchable = RequestBody.watchable(req);
    if (tracer == PageTracer.NONE) {
      flow.handle(watchable, toClient(res), chain, PageTrace.NONE);
      return;
    }
    traced(watchable, toClient(res), chain);
  }

  /** The request under its observation, which ends with the response (at the end of an async one). */
  private void traced(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    PageTrace trace = tracer.start();
    try (PageTrace.Scope scope = trace.open()) {
      flow.handle(req, res, chain, trace);
    } catch (IOException | ServletException | RuntimeException e) {
      trace.error(e);
      throw e;
    } finally {
      if (req.isAsyncStarted()) {
        req.getAsyncContext().addListener(new TraceEnd(trace));
      } else {
        trace.end();
      }
    }
  }

  /** Ends an async request's observation once, when the container completes it (or it fails or times out). */
  private static final class TraceEnd implements AsyncListener {
    private final PageTrace trace;
    private final AtomicBoolean ended = new AtomicBoolean();

    TraceEnd(PageTrace trace) {
      this.trace = trace;
    }

    @Override
    public void onComplete(AsyncEvent event) {
      end();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      end();
    }

    @Override
    public void onError(AsyncEvent event) {
      if (event.getThrowable() != null) {
        trace.error(event.getThrowable());
      }
      end();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      event.getAsyncContext().addListener(this); // a new async cycle: listeners must be added again
    }

    private void end() {
      if (ended.compareAndSet(false, true)) {
        trace.end();
      }
    }
  }

  /** The response as the cache writes to the client: the CDN tag headers stripped unless {@code tags.headers=pass}. */
  private HttpServletResponse toClient(HttpServletResponse res) {
    return cache.config.passTagHeaders ? res : SurrogateKeys.hidden(res);
  }

  @Override
  public void destroy() {
    if (owner && cache != null) {
      cache.close();
    }
  }

  /**
   * Binds the cache's meters to a Micrometer registry the application put in the ServletContext.
   * The binder is found by name: it sits above this package (it reads the cache's snapshots), and
   * it and Micrometer are loaded only when a registry is there.
   */
  private void bindMetrics(ServletContext ctx) throws ServletException {
    Object registry = ctx.getAttribute(METER_REGISTRY_ATTRIBUTE);
    if (registry == null) {
      return;
    }
    try {
      Class.forName(METRICS_BINDER, true, PageCacheFilter.class.getClassLoader())
          .getMethod("bind", PageCache.class, Object.class).invoke(null, cache, registry);
    } catch (InvocationTargetException e) {
      throw new ServletException(e.getCause().getMessage(), e.getCause());
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new ServletException("ServletContext attribute " + METER_REGISTRY_ATTRIBUTE
          + ": cannot bind the meters (" + e + "); is Micrometer on the class path?", e);
    }
  }

  /**
   * The tracer of a Micrometer ObservationRegistry the application put in the ServletContext, or
   * none. Found by name, as the meters are: it and Micrometer load only when a registry is there.
   */
  private static PageTracer tracer(ServletContext ctx) throws ServletException {
    Object registry = ctx.getAttribute(OBSERVATION_REGISTRY_ATTRIBUTE);
    if (registry == null) {
      return PageTracer.NONE;
    }
    try {
      Constructor<?> c = Class.forName(OBSERVATIONS, true, PageCacheFilter.class.getClassLoader())
          .getDeclaredConstructor(Object.class);
      c.setAccessible(true); // package-private: not part of the API
      return (PageTracer) c.newInstance(registry);
    } catch (InvocationTargetException e) {
      throw new ServletException("ServletContext attribute " + OBSERVATION_REGISTRY_ATTRIBUTE + ": "
          + e.getCause().getMessage(), e.getCause());
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      throw new ServletException("ServletContext attribute " + OBSERVATION_REGISTRY_ATTRIBUTE
          + ": cannot observe requests (" + e + "); is micrometer-observation on the class path?", e);
    }
  }

  /** The cache this filter uses (after init). */
  public PageCache pageCache() {
    return cache;
  }
}
