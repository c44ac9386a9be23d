package org.pagecache.counters;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.pagecache.internal.config.Durations;
import org.pagecache.internal.config.Specs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the counters behave, validated as a whole: an invalid value fails at start-up with a message
 * naming the setting and the value, never later at request time.
 *
 * <pre>{@code
 * CountersSettings s = CountersSettings.builder().window(Duration.ofMinutes(5)).buckets(6).build();
 * CountersSettings t = CountersSettings.parse("ttl=1d, window=5m, buckets=2, local-aggregation=1s");
 * }</pre>
 *
 * @param ttl lifetime of a view counter key in memcached; losing a key only costs a reload from
 *     the {@link CountSource}, so a day keeps memory bounded without reloading often
 * @param window how far back "online" looks: distinct visitors in the last {@code window}
 * @param buckets number of memcached keys the window is spread over: 6 gives the article's five
 *     one-minute buckets being shown while the sixth fills (a smooth count); 2 is the minimal
 *     variant where one key fills while the other, the previous whole window, is shown
 * @param localAggregation {@code 0s} (off): every view is one memcached {@code incr}; otherwise
 *     views add up in this JVM and go to memcached as one {@code incr} per object per interval
 * @param flushInterval how often counted views go to the {@link CountSink}
 * @param onlineCacheFor how long a JVM reuses the online count before asking memcached again
 */
public record CountersSettings(
    Duration ttl,
    Duration window,
    int buckets,
    Duration localAggregation,
    Duration flushInterval,
    Duration onlineCacheFor) {
  /**
   * Keys inside a spec are lower-case words joined by hyphens, as in policies ({@code ttl-max});
   * the camelCase names of earlier versions are still read, with a warning once per name.
   */
  private static final Map<String, String> OLD_NAMES = Map.of("localAggregation", "local-aggregation",
      "flushInterval", "flush-interval", "onlineCacheFor", "online-cache-for");
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
  private static final Logger LOG = LoggerFactory.getLogger(CountersSettings.class);


  private static final Duration SECOND = Duration.ofSeconds(1);
  private static final Duration THIRTY_DAYS = Duration.ofDays(30);
  private static final Duration SHORTEST_INTERVAL = Duration.ofMillis(10);

  /**
   * ttl 1d, window 5m over 6 buckets, no local aggregation, flush every 1m, online cache 1s. (The
   * filter's {@code counters} parameter adds {@code local-aggregation=1s} unless it names it.)
   * Declared after the limits above, which building it reads.
   */
  public static final CountersSettings DEFAULTS = builder().build();

  /**
   * Validates every setting at once.
   *
   * @throws IllegalArgumentException naming each invalid setting ({@code counters.NAME}), its
   *     value and what is accepted
   */
  public CountersSettings {
    List<String> errors = validate(ttl, window, buckets, localAggregation, flushInterval, onlineCacheFor);
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", errors));
    }
  }

  /** A builder that starts from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads a one-line spec such as {@code ttl=1d, window=5m, buckets=6, local-aggregation=off,
   * flush-interval=1m, online-cache-for=1s} (for a web.xml init-param); unnamed settings keep their
   * defaults. All mistakes are reported together.
   *
   * @throws IllegalArgumentException naming each unknown setting and each invalid value
   */
  public static CountersSettings parse(String spec) {
    Builder builder = builder();
    List<String> errors = new ArrayList<>();
    for (Specs.Item item : Specs.keyValues(spec)) {
      builder.set(item.name(), item.value() == null ? "" : item.value(), errors);
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", errors));
    }
    return builder.build();
  }

  /** The length of one online bucket: the window split over the buckets that are shown. */
  public Duration bucketLength() {
    return window.dividedBy(buckets - 1);
  }

  /** Whether views add up in this JVM before going to memcached ({@code localAggregation} is not 0s). */
  public boolean localAggregationEnabled() {
    return !localAggregation.isZero();
  }

  private static List<String> validate(Duration ttl, Duration window, int buckets,
      Duration localAggregation, Duration flushInterval, Duration onlineCacheFor) {
    List<String> errors = new ArrayList<>();
    between(errors, "ttl", ttl, SECOND, THIRTY_DAYS,
        " (memcached reads longer times as dates)");
    boolean bucketsValid = buckets >= 2 && buckets <= 60;
    if (!bucketsValid) {
      errors.add("counters.buckets: '" + buckets
          + "' must be 6 (five shown one-minute buckets), 2 (the minimal variant) or another count from 2 to 60");
    }
    if (between(errors, "window", window, SECOND, Duration.ofDays(1), "") && bucketsValid) {
      long shown = buckets - 1;
      if (window.toMillis() % shown != 0 || window.toMillis() / shown < 1000) {
        errors.add("counters.window: '" + Durations.format(window) + "' must split into " + shown
            + " buckets of whole milliseconds, each at least 1s (buckets=" + buckets + ")");
      } else if (onlineCacheFor != null && onlineCacheFor.toMillis() > window.toMillis() / shown) {
        errors.add("counters.online-cache-for: '" + Durations.format(onlineCacheFor)
            + "' must be at most one bucket (" + Durations.format(window.dividedBy(shown)) + ")");
      }
    }
    if (localAggregation == null || !localAggregation.isZero()) {
      between(errors, "local-aggregation", localAggregation, SHORTEST_INTERVAL, Duration.ofMinutes(1),
          " or 0s (off)");
    }
    between(errors, "flush-interval", flushInterval, SHORTEST_INTERVAL, Duration.ofDays(1), "");
    between(errors, "online-cache-for", onlineCacheFor, Duration.ZERO, Duration.ofMinutes(1), "");
    return errors;
  }

  private static boolean between(List<String> errors, String name, Duration value, Duration min,
      Duration max, String hint) {
    if (value == null) {
      errors.add("counters." + name + ": missing");
      return false;
    }
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      errors.add("counters." + name + ": '" + Durations.format(value) + "' must be between "
          + Durations.format(min) + " and " + Durations.format(max) + hint);
      return false;
    }
    return true;
  }

  /** Defaults: ttl 1d, window 5m over 6 buckets, no local aggregation, flush 1m, online cache 1s. */
  public static final class Builder {
    private Duration ttl = Duration.ofDays(1);
    private Duration window = Duration.ofMinutes(5);
    private int buckets = 6;
    private Duration localAggregation = Duration.ZERO;
    private Duration flushInterval = Duration.ofMinutes(1);
    private Duration onlineCacheFor = Duration.ofSeconds(1);

    private Builder() {}

    /** Lifetime of a view counter key in memcached, from 1s to 30d; default 1d. */
    public Builder ttl(Duration ttl) {
      this.ttl = ttl;
      return this;
    }

    /**
     * How far back "online" looks, from 1s to 1d; default 5m. It must split into
     * {@code buckets - 1} buckets of whole milliseconds, each at least 1s.
     */
    public Builder window(Duration window) {
      this.window = window;
      return this;
    }

    /** Number of memcached keys the online window is spread over, from 2 to 60; default 6. */
    public Builder buckets(int buckets) {
      this.buckets = buckets;
      return this;
    }

    /**
     * How long views add up in this JVM before going to memcached as one {@code incr} per
     * object, from 10ms to 1m; {@link Duration#ZERO} (the default) turns local aggregation off.
     */
    public Builder localAggregation(Duration interval) {
      this.localAggregation = interval;
      return this;
    }

    /** How often counted views go to the {@link CountSink}, from 10ms to 1d; default 1m. */
    public Builder flushInterval(Duration flushInterval) {
      this.flushInterval = flushInterval;
      return this;
    }

    /**
     * How long a JVM reuses the online count before asking memcached again, from 0s (always ask) to
     * 1m and at most one bucket; default 1s.
     */
    public Builder onlineCacheFor(Duration onlineCacheFor) {
      this.onlineCacheFor = onlineCacheFor;
      return this;
    }

    /** Throws {@link IllegalArgumentException} listing every invalid setting. */
    public CountersSettings build() {
      return new CountersSettings(ttl, window, buckets, localAggregation, flushInterval, onlineCacheFor);
    }

    private void set(String written, String value, List<String> errors) {
      String name = OLD_NAMES.getOrDefault(written, written);
      if (!name.equals(written) && WARNED.add(written)) {
        LOG.warn("counters: '{}' is now written '{}' (the old name is still accepted)", written, name);
      }
      if (name.equals("buckets")) {
        try {
          buckets = Integer.parseInt(value);
        } catch (NumberFormatException e) {
          errors.add("counters.buckets: '" + value + "' is not a number; use 6 or 2");
        }
        return;
      }
      Duration d = Durations.parse(value);
      if (d == null && isDurationSetting(name)) {
        errors.add(Durations.notADuration("counters." + name, value));
        return;
      }
      switch (name) {
        case "ttl" -> ttl = d;
        case "window" -> window = d;
        case "local-aggregation" -> localAggregation = d;
        case "flush-interval" -> flushInterval = d;
        case "online-cache-for" -> onlineCacheFor = d;
        default -> errors.add("counters: unknown setting '" + name
            + "'; use ttl, window, buckets, local-aggregation, flush-interval, online-cache-for");
      }
    }

    private static boolean isDurationSetting(String name) {
      return List.of("ttl", "window", "local-aggregation", "flush-interval", "online-cache-for").contains(name);
    }
  }
}
