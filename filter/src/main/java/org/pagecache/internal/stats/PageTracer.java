package org.pagecache.internal.stats;

/** Starts the {@link PageTrace} of each request the filter handles. */
@FunctionalInterface
public interface PageTracer {
  /** No tracer: every request gets {@link PageTrace#NONE}. */
  PageTracer NONE = () -> PageTrace.NONE;

  /** A started trace for a new request, not yet current on any thread ({@link PageTrace#open}). */
  PageTrace start();
}
