package org.pagecache.internal.fragments;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.pagecache.internal.store.GuardedStore;
import org.pagecache.store.Namespace;
import org.pagecache.store.StoreException;

/**
 * A renderer whose output is kept in memcached for a while per user or per group: the first serve
 * for a visitor renders and stores it, the next ones within the TTL read it back (one round trip
 * instead of the application's work, such as a cart summary from the database). Whom it is for is
 * the application's choice ({@code per}: a user id, a customer group...), hashed into the key. With
 * memcached down the renderer runs every time; {@code per} giving null means not kept.
 */
public final class KeptFragment implements Fragments.Renderer {
  private final GuardedStore store;
  private final Namespace namespace;
  private final String name;
  private final int ttlSeconds;
  private final Function<HttpServletRequest, String> per;
  private final Fragments.Renderer renderer;

  public KeptFragment(GuardedStore store, Namespace namespace, String name, int ttlSeconds,
      Function<HttpServletRequest, String> per, Fragments.Renderer renderer) {
    Placeholders.fragment(name);
    if (ttlSeconds < 1) {
      throw new IllegalArgumentException("fragment '" + name + "': the ttl must be at least 1s");
    }
    this.store = store;
    this.namespace = namespace;
    this.name = name;
    this.ttlSeconds = ttlSeconds;
    this.per = per;
    this.renderer = renderer;
  }

  @Override
  public String render(HttpServletRequest request) throws Exception {
    String who = per.apply(request);
    if (who == null) {
      return renderer.render(request);
    }
    String key = namespace.fragment(name, who);
    try {
      byte[] kept = store.get(key);
      if (kept != null) {
        return new String(kept, StandardCharsets.UTF_8);
      }
    } catch (StoreException e) {
      return renderer.render(request);
    }
    String out = renderer.render(request);
    if (out != null) {
      try {
        store.set(key, out.getBytes(StandardCharsets.UTF_8), ttlSeconds);
      } catch (StoreException e) {
        // kept next time, when memcached is back
      }
    }
    return out;
  }
}
