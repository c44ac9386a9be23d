package org.pagecache.internal.capture;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/**
 * The async context a handler gets while its page is being built: the response keeps being
 * captured after the filter has returned, and {@link #complete()} first hands the finished capture
 * to the cache (which stores and sends it), then completes the real context. A {@code dispatch}
 * cannot be captured (the container writes the dispatched response itself): the capture is handed
 * to the client first and the response goes through uncached, as before.
 */
final class CapturedAsync implements AsyncContext {
  private final AsyncContext real;
  private final Runnable onComplete;
  private final Runnable handOver;
  private final ServletRequest request;
  private final ServletResponse response;
  private boolean completed;

  /**
   * @param request  what {@link #getRequest()} answers: the capturing request for {@code startAsync()}
   *                 (the container would answer its unwrapped one, whose writes the capture would miss)
   * @param response what {@link #getResponse()} answers, likewise
   */
  CapturedAsync(AsyncContext real, Runnable onComplete, Runnable handOver, ServletRequest request,
      ServletResponse response) {
    this.real = real;
    this.onComplete = onComplete;
    this.handOver = handOver;
    this.request = request;
    this.response = response;
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
      onComplete.run();
    } finally {
      real.complete();
    }
  }

  @Override
  public void dispatch() {
    handOver.run();
    real.dispatch();
  }

  @Override
  public void dispatch(String path) {
    handOver.run();
    real.dispatch(path);
  }

  @Override
  public void dispatch(ServletContext context, String path) {
    handOver.run();
    real.dispatch(context, path);
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
