package org.pagecache.internal.capture;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/**
 * The async context a handler gets while its page is being built: the response keeps being
 * captured after the filter has returned, and {@link #complete()} first hands the finished capture
 * to the cache (which stores and sends it), then completes the real context. At a {@code dispatch}
 * the build goes on in the ASYNC dispatch when the filter sees those (it finds the build through a
 * request attribute and finishes it when the dispatch ends); otherwise the capture is handed to the
 * client first and the response goes through uncached.
 */
final class CapturedAsync implements AsyncContext {
  private final AsyncContext real;
  private final AsyncCapture build;
  private final Runnable handOver;
  private final ServletRequest request;
  private final ServletResponse response;
  private boolean completed;

  /**
   * @param request  what {@link #getRequest()} answers: the capturing request for {@code startAsync()}
   *                 (the container would answer its unwrapped one, whose writes the capture would miss)
   * @param response what {@link #getResponse()} answers, likewise
   */
  CapturedAsync(AsyncContext real, AsyncCapture build, Runnable handOver, ServletRequest request,
      ServletResponse response) {
    this.real = real;
    this.build = build;
    this.handOver = handOver;
    this.request = request;
    this.response = response;
    build.started();
    real.addListener(new Ending(build));
  }

  /** Ends a build whose async cycle timed out or failed, so its lock is not held until it expires. */
  private record Ending(AsyncCapture build) implements AsyncListener {
    @Override
    public void onComplete(AsyncEvent event) {
      build.abandoned(); // nothing if complete() or the dispatch already ended the build
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      build.abandoned();
    }

    @Override
    public void onError(AsyncEvent event) {
      build.abandoned();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      // a new cycle registers its own
    }
  }

  @Override
  public void complete() {
    synchronized (this) {
      if (completed) {
        return;
      }
      completed = true;
    }
    try {
      build.completed();
    } finally {
      real.complete();
    }
  }

  @Override
  public void dispatch() {
    beforeDispatch();
    real.dispatch();
  }

  @Override
  public void dispatch(String path) {
    beforeDispatch();
    real.dispatch(path);
  }

  @Override
  public void dispatch(ServletContext context, String path) {
    beforeDispatch();
    real.dispatch(context, path);
  }

  private void beforeDispatch() {
    if (!build.dispatching()) {
      handOver.run();
    }
  }

  @Override
  public ServletRequest getRequest() {
    return request;
  }

  @Override
  public ServletResponse getResponse() {
    return response;
  }

  @Override
  public boolean hasOriginalRequestAndResponse() {
    return real.hasOriginalRequestAndResponse();
  }

  @Override
  public void start(Runnable run) {
    real.start(run);
  }

  @Override
  public void addListener(AsyncListener listener) {
    real.addListener(listener);
  }

  @Override
  public void addListener(AsyncListener listener, ServletRequest request, ServletResponse response) {
    real.addListener(listener, request, response);
  }

  @Override
  public <T extends AsyncListener> T createListener(Class<T> type) throws ServletException {
    return real.createListener(type);
  }

  @Override
  public void setTimeout(long timeout) {
    real.setTimeout(timeout);
  }

  @Override
  public long getTimeout() {
    return real.getTimeout();
  }
}
