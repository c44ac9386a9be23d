package org.pagecache.internal.capture;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * The response of a request the cache does not capture (an unsafe method), with a callback run
 * once, with the status and the {@code Location} and {@code Content-Location} headers, just before
 * the handler starts its body, flushes, redirects, or ends without a body ({@link #finish}). Run
 * that early so the client cannot have the answer before the callback's work (evicting the pages
 * a write changed) is done. An error ({@code sendError}) never runs it.
 */
public final class ResponseStartWatch extends TagsHeaderHidden {
  /** What to do once the status and headers are known. */
  public interface Callback {
    void started(int status, String location, String contentLocation);
  }

  private final Callback callback;
  private boolean done;

  public ResponseStartWatch(HttpServletResponse response, Callback callback) {
    super(response);
    this.callback = callback;
  }

  private void start(int status, String location) {
    if (!done) {
      done = true;
      callback.started(status, location, getHeader("Content-Location"));
    }
  }

  private void start() {
    start(getStatus(), getHeader("Location"));
  }

  /** Runs the callback if the handler ended without starting a body. */
  public void finish() {
    start();
  }

  @Override
  public ServletOutputStream getOutputStream() throws IOException {
    start();
    return super.getOutputStream();
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    start();
    return super.getWriter();
  }

  @Override
  public void flushBuffer() throws IOException {
    start();
    super.flushBuffer();
  }

  @Override
  public void sendRedirect(String location) throws IOException {
    start(SC_FOUND, location);
    super.sendRedirect(location);
  }

  @Override
  public void sendError(int sc) throws IOException {
    done = true;
    super.sendError(sc);
  }

  @Override
  public void sendError(int sc, String msg) throws IOException {
    done = true;
    super.sendError(sc, msg);
  }
}
