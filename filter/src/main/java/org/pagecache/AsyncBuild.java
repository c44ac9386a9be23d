package org.pagecache;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.pagecache.internal.capture.AsyncCapture;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.CapturingResponse;
import org.pagecache.internal.capture.WatchedRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A build whose handler went async: it ends once, when the handler completes its async context or
 * when the ASYNC dispatch it asked for has run through the filter without going async again; then
 * the capture is decided (stored, refused, stale copy), the rebuild lock given back and the
 * response answered. A dispatch the filter does not see (not mapped for ASYNC dispatches, or none
 * seen yet) hands the response to the client uncached; a timeout or error gives the lock back.
 */
final class AsyncBuild implements AsyncCapture {
  private static final Logger log = LoggerFactory.getLogger(AsyncBuild.class);
  /** The request attribute through which the ASYNC dispatch finds the build it continues. */
  static final String ATTRIBUTE = AsyncBuild.class.getName();

  private final PageRequest p;
  private final CapturingResponse capture;
  private final WatchedRequest shared;
  private final Responder responder;
  private final BooleanSupplier dispatchesSeen;
  private final Function<CapturedResponse, Built> decide;
  private final Runnable refuse;
  private final Runnable giveBack;
  private final long startNanos;
  private final AtomicInteger starts = new AtomicInteger();
  private final AtomicBoolean ended = new AtomicBoolean();

  /**
   * @param dispatchesSeen true once the filter has seen an ASYNC dispatch: only then can one continue a build
   * @param decide         what the whole capture ends in ({@link BuildDecision}, stores)
   * @param refuse         a dispatch the filter will not see: the page is remembered as refused
   * @param giveBack       gives the rebuild lock back (nothing for a build without it)
   */
  AsyncBuild(PageRequest p, CapturingResponse capture, WatchedRequest shared, Responder responder,
      BooleanSupplier dispatchesSeen, Function<CapturedResponse, Built> decide, Runnable refuse, Runnable giveBack) {
    this.p = p;
    this.capture = capture;
    this.shared = shared;
    this.responder = responder;
    this.dispatchesSeen = dispatchesSeen;
    this.decide = decide;
    this.refuse = refuse;
    this.giveBack = giveBack;
    this.startNanos = System.nanoTime();
  }

  @Override
  public void started() {
    starts.incrementAndGet();
  }

  @Override
  public void completed() {
    try {
      finish();
    } catch (IOException | ServletException | RuntimeException e) {
      log.warn("pagecache: async build of a {} page failed to be answered ({})", p.handler(), e.toString());
    }
  }

  @Override
  public boolean dispatching() {
    if (dispatchesSeen.getAsBoolean()) {
      shared.pauseWatching(true); // until the dispatch reaches the filter
      p.req().setAttribute(ATTRIBUTE, this);
      return true;
    }
    if (ended.compareAndSet(false, true)) {
      try {
        refuse.run();
      } finally {
        giveBack.run();
      }
    }
    return false;
  }

  @Override
  public void abandoned() {
    if (ended.compareAndSet(false, true)) {
      p.stats().bypass("async-abandoned");
      giveBack.run();
    }
  }

  /**
   * Runs the ASYNC dispatch with its response captured into the same build, and finishes the build
   * when the dispatch returns without starting another async cycle.
   */
  void resume(HttpServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    // Handlers that started async with the wrappers they got are dispatched those wrappers back.
    ServletRequest request = wraps(req, shared) ? req : shared.continuing(req);
    ServletResponse response = wraps(res, capture) ? res : capture;
    shared.pauseWatching(false);
    int before = starts.get();
    try {
      chain.doFilter(request, response);
    } catch (IOException | ServletException | RuntimeException | Error e) {
      abandoned();
      throw e;
    }
    if (starts.get() == before) {
      finish();
    }
  }

  private void finish() throws IOException, ServletException {
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    Built built;
    try {
      CapturedResponse c = capture.finish();
      p.stats().built(System.nanoTime() - startNanos);
      built = decide.apply(c);
    } finally {
      giveBack.run();
    }
    responder.answer(p, built);
  }

  private static boolean wraps(ServletRequest given, ServletRequest ours) {
    return given == ours || given instanceof ServletRequestWrapper w && w.isWrapperFor(ours);
  }

  private static boolean wraps(ServletResponse given, ServletResponse ours) {
    return given == ours || given instanceof ServletResponseWrapper w && w.isWrapperFor(ours);
  }
}
