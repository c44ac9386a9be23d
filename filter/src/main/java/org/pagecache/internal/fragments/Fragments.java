package org.pagecache.internal.fragments;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.Charset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.pagecache.internal.stats.HandlerRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's fragment renderers by name, and the one place that calls them. A renderer runs
 * on the request's thread, in the same JVM (no sub-request), with the visitor's own request, once
 * per placeholder, in page order. Whatever it does, the page goes out: a renderer that throws, that
 * is unknown, or that took longer than the budget gives an empty part and a log line (at most one a
 * minute per fragment), never another visitor's part and never an error for the whole page.
 *
 * <p>A renderer is not interrupted (it runs on the request's thread, where a Spring application
 * keeps its security context); one past the budget has its output thrown away, so a slow part shows
 * as missing, and the figures per handler show the time it took.
 */
public final class Fragments {
  /** ServletContext attribute: renderers registered before the filter started (a listener's). */
  public static final String CONTEXT_ATTRIBUTE = "org.pagecache.fragments";
  private static final Logger log = LoggerFactory.getLogger(Fragments.class);
  private static final long LOG_EVERY_NANOS = 60_000_000_000L;

  /** Renders one fragment for the visitor of {@code request}; null renders as nothing. */
  @FunctionalInterface
  public interface Renderer {
    String render(HttpServletRequest request) throws Exception;
  }

  private final Map<String, Renderer> renderers = new ConcurrentHashMap<>();
  private final Map<String, Long> lastLogged = new ConcurrentHashMap<>();
  private final long budgetNanos;

  /** @param budgetMillis the longest a renderer may take before its output is thrown away ({@code fragments.timeout}) */
  public Fragments(long budgetMillis) {
    this.budgetNanos = budgetMillis * 1_000_000L;
  }

  /** Registers (or replaces) the renderer of {@code name}. */
  public void register(String name, Renderer renderer) {
    Placeholders.fragment(name); // checks the name
    if (renderer == null) {
      throw new IllegalArgumentException("fragment '" + name + "': the renderer is null");
    }
    renderers.put(name, renderer);
  }

  /** Registers a renderer in a web application before its filter has started (read at each serve). */
  @SuppressWarnings("unchecked")
  public static void register(ServletContext context, String name, Renderer renderer) {
    Placeholders.fragment(name);
    synchronized (context) {
      Object map = context.getAttribute(CONTEXT_ATTRIBUTE);
      if (!(map instanceof Map<?, ?>)) {
        map = new ConcurrentHashMap<String, Renderer>();
        context.setAttribute(CONTEXT_ATTRIBUTE, map);
      }
      ((Map<String, Renderer>) map).put(name, renderer);
    }
  }

  /** The names registered on this cache (not those of a ServletContext). */
  public java.util.Set<String> names() {
    return java.util.Collections.unmodifiableSet(renderers.keySet());
  }

  /**
   * The bytes of fragment {@code name} for this visitor in {@code charset}: never throws, and gives
   * an empty part when the renderer fails, is unknown or is too slow. Counted in {@code stats}.
   */
  public byte[] render(String name, HttpServletRequest request, Charset charset, HandlerRecorder stats) {
    Renderer renderer = renderer(name, request);
    long start = System.nanoTime();
    String out = null;
    String failure = null;
    if (renderer == null) {
      failure = "no renderer is registered under this name";
    } else {
      try {
        out = renderer.render(request);
      } catch (Exception | LinkageError e) {
        failure = "its renderer threw " + e.getClass().getName(); // not the message: it may name the visitor
      }
    }
    long took = System.nanoTime() - start;
    if (failure == null && took > budgetNanos) {
      failure = "its renderer took " + took / 1_000_000 + " ms, past fragments.timeout";
      out = null;
    }
    stats.fragmentRendered(took, failure != null);
    if (failure != null) {
      logFailure(name, stats.handler(), failure);
      return EMPTY;
    }
    return out == null || out.isEmpty() ? EMPTY : out.getBytes(charset);
  }

  private static final byte[] EMPTY = new byte[0];

  @SuppressWarnings("unchecked")
  private Renderer renderer(String name, HttpServletRequest request) {
    Renderer r = renderers.get(name);
    if (r == null && request.getServletContext() != null
        && request.getServletContext().getAttribute(CONTEXT_ATTRIBUTE) instanceof Map<?, ?> map) {
      r = ((Map<String, Renderer>) map).get(name);
    }
    return r;
  }

  /** At most one line a minute per fragment: a broken renderer on a busy page must not flood the log. */
  private void logFailure(String name, String handler, String failure) {
    long now = System.nanoTime();
    Long last = lastLogged.get(name);
    if (last != null && now - last < LOG_EVERY_NANOS) {
      return;
    }
    lastLogged.put(name, now);
    log.warn("pagecache: fragment '{}' on a '{}' page rendered as nothing: {}", name, handler, failure);
  }
}
