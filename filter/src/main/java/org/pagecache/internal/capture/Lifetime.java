package org.pagecache.internal.capture;

import java.time.Duration;
import java.util.List;

/**
 * How long a response may be reused, as a shared cache obeying the response's own fields reads it
 * ({@code cache-control=honor}; RFC 9111 4.2, RFC 9213). Pure: plain values in, a value out.
 *
 * <p>The controlling field is the first present of {@code PageCache-Control} (addressed to this
 * cache alone, never sent to the client), {@code CDN-Cache-Control} (addressed to the caches of
 * the site's operator, RFC 9213) and {@code Cache-Control}; a targeted field that is not a valid
 * Structured Field dictionary is ignored as a whole. A targeted field replaces
 * {@code Cache-Control} and {@code Expires} entirely. The lifetime is {@code s-maxage}, else
 * {@code max-age}, else {@code Expires} minus the response's {@code Date}; an unreadable one means
 * "do not reuse". The response's age ({@code Age}, or its {@code Date} already past) is counted
 * against it.
 *
 * @param refusal      why the response may not be stored; null when it may
 * @param fresh        how long it stays fresh from now (at most the policy's ttl-max); null when it
 *                     names no lifetime (the policy's ttl stands)
 * @param ageSeconds   its age on arrival, kept so the {@code Age} sent later goes on from it
 * @param forbidsStale {@code must-revalidate}, {@code proxy-revalidate} or {@code s-maxage} (which
 *                     implies proxy-revalidate for a shared cache): never served stale
 */
public record Lifetime(String refusal, Duration fresh, long ageSeconds, boolean forbidsStale) {
  /** The field addressed to PageCache alone; same syntax as Cache-Control. */
  public static final String OWN_FIELD = "PageCache-Control";
  /** The field addressed to the site's own caches (RFC 9213). */
  public static final String CDN_FIELD = "CDN-Cache-Control";

  /**
   * @param c         the captured response
   * @param nowMillis when it arrived
   * @param max       the policy's ttl-max
   */
  public static Lifetime of(CapturedResponse c, long nowMillis, Duration max) {
    boolean targeted = true;
    CacheControl cc = CacheControl.parse(c.headerValues(OWN_FIELD));
    if (cc.isEmpty() || !cc.isValidDictionary()) {
      cc = CacheControl.parse(c.headerValues(CDN_FIELD));
    }
    if (cc.isEmpty() || !cc.isValidDictionary()) {
      cc = CacheControl.parse(c.headerValues("Cache-Control"));
      targeted = false;
    }
    long age = ageSeconds(c, nowMillis);
    boolean forbidsStale = cc.has("must-revalidate") || cc.has("proxy-revalidate") || cc.has("s-maxage");
    String refusal = cc.has("private") ? "private" : cc.has("no-store") ? "no-store" : cc.has("no-cache") ? "no-cache" : null;
    if (refusal != null) {
      return new Lifetime(refusal, null, age, forbidsStale);
    }
    Long lifetime = cc.deltaSeconds("s-maxage");
    if (lifetime == null) {
      lifetime = cc.deltaSeconds("max-age");
    }
    if (lifetime != null && lifetime < 0) {
      return new Lifetime("invalid-max-age", null, age, forbidsStale);
    }
    if (lifetime == null && !targeted && !c.headerValues("Expires").isEmpty()) {
      Long expires = HttpDates.parse(c.headerValues("Expires"));
      Long date = HttpDates.parse(c.headerValues("Date"));
      // an invalid Expires (the servlet idiom Expires: 0 among them) means already expired
      lifetime = expires == null ? 0 : Math.max(0, (expires - (date != null ? date : nowMillis)) / 1000);
      if (lifetime == 0) {
        return new Lifetime("expires", null, age, forbidsStale);
      }
    }
    if (lifetime == null) {
      return new Lifetime(null, null, age, forbidsStale);
    }
    if (lifetime == 0) {
      return new Lifetime("max-age-0", null, age, forbidsStale);
    }
    if (lifetime <= age) {
      return new Lifetime("stale-on-arrival", null, age, forbidsStale);
    }
    Duration fresh = Duration.ofSeconds(lifetime - age);
    return new Lifetime(null, fresh.compareTo(max) > 0 ? max : fresh, age, forbidsStale);
  }

  /**
   * The response's age on arrival (RFC 9111 4.2.3): the larger of its {@code Age} and how far its
   * {@code Date} lies in the past. An {@code Age} that is not a non-negative integer is ignored;
   * only the first value counts.
   */
  static long ageSeconds(CapturedResponse c, long nowMillis) {
    long age = 0;
    List<String> lines = c.headerValues("Age");
    if (!lines.isEmpty()) {
      String first = lines.get(0).split(",", 2)[0].trim();
      if (!first.isEmpty() && first.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
        age = first.length() > 10 ? CacheControl.MAX_DELTA : Math.min(CacheControl.MAX_DELTA, Long.parseLong(first));
      }
    }
    Long date = HttpDates.parse(c.headerValues("Date"));
    if (date != null) {
      age = Math.max(age, Math.max(0, (nowMillis - date) / 1000));
    }
    return age;
  }
}
