package org.pagecache.internal.capture;

/**
 * What becomes of a build whose handler goes async with its response still captured (see
 * {@link CapturedAsync}): told of every {@code startAsync}, of {@code complete()}, and asked at a
 * {@code dispatch} whether the build goes on in the dispatch (the filter sees ASYNC dispatches) or
 * the response is handed to the client uncached.
 */
public interface AsyncCapture {
  /** The handler started an async cycle on the captured request (each cycle, dispatches included). */
  void started();

  /** The handler completed the async context: the capture is whole. */
  void completed();

  /** True when the build continues in the ASYNC dispatch; false: the response goes out uncached. */
  boolean dispatching();

  /** The async cycle ended without a complete or a dispatch the build saw (timeout, error). */
  void abandoned();
}
