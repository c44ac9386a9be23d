package org.pagecache.internal.vary;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The site's declared classes: its device rules ({@code device.*} settings) and each handler's
 * compiled {@code vary=} classes, made once per handler. The device classes of {@code User-Agent}
 * values are remembered for the whole site (the rules are the site's), bounded; a handler's
 * languages and formats are its own, and so are their caches.
 */
public final class VisitorClasses {
  /** Distinct header values remembered per cache: about 100 bytes each, so about a megabyte at most. */
  static final int REMEMBERED = 10_000;

  private final DeviceRules rules;
  private final Cache<String, String> devices = Caffeine.newBuilder().maximumSize(REMEMBERED).build();
  private final Map<String, HandlerClasses> byHandler = new ConcurrentHashMap<>();

  public VisitorClasses(DeviceRules rules) {
    this.rules = rules;
  }

  public DeviceRules rules() {
    return rules;
  }

  /**
   * The classes a handler's policy declares, made on first use (a handler's policy never changes).
   *
   * @param classes   the policy's declared classes ({@code device}, {@code language}, {@code format}); not empty
   * @param languages the policy's {@code languages=} tags (needed with {@code language})
   * @param formats   the policy's {@code formats=} types (needed with {@code format})
   */
  public HandlerClasses of(String handler, List<String> classes, List<String> languages, List<String> formats) {
    HandlerClasses known = byHandler.get(handler);
    if (known != null) {
      return known;
    }
    return byHandler.computeIfAbsent(handler, h -> new HandlerClasses(
        classes.contains(HandlerClasses.DEVICE) ? rules : null,
        classes.contains(HandlerClasses.LANGUAGE) ? new Languages(languages) : null,
        classes.contains(HandlerClasses.FORMAT) ? new Formats(formats) : null,
        devices, Caffeine.newBuilder().maximumSize(REMEMBERED).build(),
        Caffeine.newBuilder().maximumSize(REMEMBERED).build()));
  }
}
