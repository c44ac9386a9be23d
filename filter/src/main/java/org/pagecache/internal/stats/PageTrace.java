package org.pagecache.internal.stats;

/**
 * What one request tells a tracer: its handler, the steps it takes (the lookup, the wait for
 * another request's build, the build, the store), whether it waited, and how it was served. The
 * request path calls it at those points; {@link #NONE} does nothing, so without a tracer nothing
 * is allocated or loaded. The one for Micrometer Observation sits in {@code org.pagecache.metrics}
 * and is loaded by name when the application has an {@code ObservationRegistry}.
 */
public interface PageTrace {
  /** Does nothing: the trace of every request when nothing observes them. */
  PageTrace NONE = new PageTrace() {};

  /** The steps a page request may take, each a child of the request's own observation. */
  enum Step {
    LOOKUP, WAIT, BUILD, STORE
  }

  /** A step or the request in progress on this thread; closing it ends it there. */
  interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  Scope NO_SCOPE = () -> { };

  /** Starts a step; close the returned scope when it ends (try-with-resources). */
  default Scope step(Step step) {
    return NO_SCOPE;
  }

  /** Makes the request's observation current on this thread (its handler's own spans nest under it). */
  default Scope open() {
    return NO_SCOPE;
  }

  /** The handler that serves the request (a policy's name: few values). */
  default void handler(String handler) { }

  /** The request waited for another request's build (this JVM's or another's). */
  default void waited() { }

  /** How the request was served, as X-Cache says it: HIT, MISS, STALE, BYPASS. */
  default void status(String xCache) { }

  default void error(Throwable error) { }

  /** The response is complete; called once. */
  default void end() { }
}
