package org.pagecache.internal.capture;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * When a stale page may still be served, as the response that made it says ({@code
 * cache-control=honor}; RFC 5861). Pure: a stored page and a time in, a yes or no out.
 * <ul>
 *   <li>{@code stale-while-revalidate=N}: served stale while another request rebuilds it for N
 *       seconds past its fresh time; after that the request waits for the rebuild;
 *   <li>{@code stale-if-error=N}: a rebuild that fails serves the stale copy for N seconds past
 *       its fresh time; after that the error goes to the client;
 *   <li>only 500, 502, 503 and 504 are errors that a stale copy hides (RFC 5861 section 4); any
 *       other status, 501 or a non-standard 5xx, goes to the client as the handler sent it.
 * </ul>
 * Without the directive the policy's grace decides, as in the default mode (where this class
 * always answers yes). The directives are read from the stored {@code CDN-Cache-Control} when it is
 * a valid dictionary, else {@code Cache-Control}; {@code PageCache-Control} is not stored.
 */
public final class StaleWindows {
  /** The statuses RFC 5861 lets a stale copy stand in for. */
  static final Set<Integer> HIDDEN_ERRORS = Set.of(500, 502, 503, 504);

  private StaleWindows() {
  }

  /** True when {@code page}, stale, may be served while another request rebuilds it. */
  public static boolean whileRevalidating(StoredPage page, boolean honor, long nowMillis) {
    return !honor || within(page, "stale-while-revalidate", nowMillis);
  }

  /**
   * True when the request that wins {@code page}'s rebuild lock may itself be answered with the
   * stale copy while the page is rebuilt in the background: always in the default mode, where the
   * policy's grace decides; under {@code honor} only when the response said
   * {@code stale-while-revalidate} and its window holds. RFC 9111 section 4.2.4 lets a cache serve
   * stale only where it is explicitly permitted, so without the directive that request revalidates
   * (builds) and waits, as a shared cache does; the requests that lose the lock meanwhile are
   * still the grace's, the stampede protection ({@link #whileRevalidating}).
   */
  public static boolean revalidatesInBackground(StoredPage page, boolean honor, long nowMillis) {
    if (!honor) {
      return true;
    }
    Long seconds = controlling(page).deltaSeconds("stale-while-revalidate");
    return seconds != null && seconds >= 0 && nowMillis <= page.freshUntilMillis() + seconds * 1000;
  }

  /**
   * True when {@code page}, stale, may be served in place of a failed rebuild.
   *
   * @param status the status the rebuild answered, or null when the handler threw
   */
  public static boolean onError(StoredPage page, Integer status, boolean honor, long nowMillis) {
    if (!honor) {
      return true;
    }
    if (status != null && !HIDDEN_ERRORS.contains(status)) {
      return false;
    }
    return within(page, "stale-if-error", nowMillis);
  }

  private static boolean within(StoredPage page, String directive, long nowMillis) {
    Long seconds = controlling(page).deltaSeconds(directive);
    if (seconds == null) {
      return true; // not said: the policy's grace
    }
    return seconds >= 0 && nowMillis <= page.freshUntilMillis() + seconds * 1000;
  }

  private static CacheControl controlling(StoredPage page) {
    CacheControl cdn = CacheControl.parse(values(page, Lifetime.CDN_FIELD));
    if (!cdn.isEmpty() && cdn.isValidDictionary()) {
      return cdn;
    }
    return CacheControl.parse(values(page, "Cache-Control"));
  }

  private static List<String> values(StoredPage page, String name) {
    List<String> out = new ArrayList<>();
    for (Header h : page.headers()) {
      if (h.name().equalsIgnoreCase(name)) {
        out.add(h.value());
      }
    }
    return out;
  }
}
