package org.pagecache.metrics;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import org.pagecache.internal.stats.PageTrace;
import org.pagecache.internal.stats.PageTracer;

/**
 * Each page request as a Micrometer Observation, so Micrometer Tracing shows it as a span (next to
 * the application's database spans, which nest under the build) and the registry's meter handler
 * as a timer by cache status.
 *
 * <table>
 *   <caption>observations (low-cardinality keys only: few values each)</caption>
 *   <tr><td>{@code pagecache.request}</td><td>the request, from the filter to its response; keys
 *       {@code pagecache.handler} (the handler's name), {@code pagecache.status} ({@code hit},
 *       {@code miss}, {@code stale}, {@code bypass}; {@code none} for a write), {@code pagecache.waited}
 *       ({@code true} when it waited for another request's build)</td></tr>
 *   <tr><td>{@code pagecache.request.lookup}, {@code .wait}, {@code .build}, {@code .store}</td><td>its
 *       steps, children of it, key {@code pagecache.handler}</td></tr>
 * </table>
 *
 * <p>Loaded by name by the filter when the ServletContext attribute
 * {@code io.micrometer.observation.ObservationRegistry} holds a registry (the Spring Boot starter
 * puts Boot's there): Micrometer stays an optional dependency, and without it nothing here loads.
 */
final class PageObservations implements PageTracer {
  static final String REQUEST = "pagecache.request";
  static final String HANDLER = "pagecache.handler";
  static final String STATUS = "pagecache.status";
  static final String WAITED = "pagecache.waited";
  private static final String NOT_KNOWN = "none";

  private final ObservationRegistry registry;

  /** @param registry an {@code io.micrometer.observation.ObservationRegistry} (Object: called by name) */
  PageObservations(Object registry) {
    this.registry = (ObservationRegistry) registry;
  }

  @Override
  public PageTrace start() {
    Observation request = Observation.createNotStarted(REQUEST, registry)
        .contextualName("pagecache")
        .lowCardinalityKeyValue(HANDLER, NOT_KNOWN)
        .lowCardinalityKeyValue(STATUS, NOT_KNOWN)
        .lowCardinalityKeyValue(WAITED, "false")
        .start();
    return request.isNoop() ? PageTrace.NONE : new Traced(request, registry);
  }

  private static final class Traced implements PageTrace {
    private final Observation request;
    private final ObservationRegistry registry;
    private volatile String handler = NOT_KNOWN;

    Traced(Observation request, ObservationRegistry registry) {
      this.request = request;
      this.registry = registry;
    }

    @Override
    public Scope step(Step step) {
      String name = step.name().toLowerCase(Locale.ROOT);
      Observation child = Observation.createNotStarted(REQUEST + "." + name, registry)
          .parentObservation(request)
          .contextualName("pagecache " + name)
          .lowCardinalityKeyValue(HANDLER, handler)
          .start();
      Observation.Scope scope = child.openScope();
      return () -> {
        scope.close();
        child.stop();
      };
    }

    @Override
    public Scope open() {
      Observation.Scope scope = request.openScope();
      return scope::close;
    }

    @Override
    public void handler(String name) {
      handler = name;
      request.lowCardinalityKeyValue(HANDLER, name).contextualName("pagecache " + name);
    }

    @Override
    public void waited() {
      request.lowCardinalityKeyValue(WAITED, "true");
    }

    @Override
    public void status(String xCache) {
      request.lowCardinalityKeyValue(STATUS, xCache.toLowerCase(Locale.ROOT));
    }

    @Override
    public void error(Throwable error) {
      request.error(error);
    }

    @Override
    public void end() {
      request.stop();
    }
  }
}
