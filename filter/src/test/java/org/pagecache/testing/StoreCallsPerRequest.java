package org.pagecache.testing;

import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * Counts, per HTTP request, the calls that reached a store and how many of them failed: a store
 * wrapper (give it to the site as its store; PageCache puts its circuit breaker in front, so a call
 * the open circuit skips never arrives here) and a {@link ServletRequestListener} (add it to the
 * context) that opens and closes each request's count on the request's thread. Calls made outside
 * a request (background flushes) are passed on and not counted.
 *
 * <p>So a fault test asserts round trips instead of elapsed times: "no request paid the op timeout
 * twice" is "no request had two failed calls", whatever the machine's load.
 *
 * <pre>{@code
 * StoreCallsPerRequest calls = new StoreCallsPerRequest(new MemcachedStore(settings));
 * site.store(calls).with(ctx -> ctx.addEventListener(calls)).start();
 * ... load ...
 * assertTrue(calls.requests().stream().allMatch(r -> r.failed() <= 1));
 * }</pre>
 */
public final class StoreCallsPerRequest extends ForwardingStore implements ServletRequestListener {
  /** One finished request: the calls that reached the store, and how many of them threw. */
  public record Request(int calls, int failed) {}

  private final ThreadLocal<int[]> current = new ThreadLocal<>();
  private final ConcurrentLinkedQueue<Request> finished = new ConcurrentLinkedQueue<>();

  public StoreCallsPerRequest(Store delegate) {
    super(delegate);
  }

  /** Every request finished since the last {@link #clear}. */
  public List<Request> requests() {
    return List.copyOf(finished);
  }

  public void clear() {
    finished.clear();
  }

  @Override
  public void requestInitialized(ServletRequestEvent event) {
    current.set(new int[2]);
  }

  @Override
  public void requestDestroyed(ServletRequestEvent event) {
    int[] counts = current.get();
    current.remove();
    if (counts != null) {
      finished.add(new Request(counts[0], counts[1]));
    }
  }

  @Override
  protected <T> T forward(String op, Collection<String> keys, Supplier<T> call) {
    int[] counts = current.get();
    if (counts != null) {
      counts[0]++;
    }
    try {
      return call.get();
    } catch (StoreException e) {
      if (counts != null) {
        counts[1]++;
      }
      throw e;
    }
  }

  @Override
  public String describe() {
    return "counted " + delegate.describe();
  }
}
