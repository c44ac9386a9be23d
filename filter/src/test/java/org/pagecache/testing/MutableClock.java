package org.pagecache.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Clock} that tests move by hand, so TTLs, grace periods and time windows can be tested
 * without waiting (the idea of Caffeine's {@code FakeTicker}). Code under test takes a
 * {@code java.time.Clock}; tests pass this one. Thread-safe.
 *
 * <pre>{@code
 * MutableClock clock = new MutableClock();
 * LocalStore store = new LocalStore(clock, 1 << 20);
 * store.set("k", value, 60);
 * clock.advance(Duration.ofSeconds(61)); // k is now expired
 * }</pre>
 */
public final class MutableClock extends Clock {
  /** A fixed, recognisable start so test output is reproducible. */
  public static final Instant DEFAULT_START = Instant.parse("2024-01-01T00:00:00Z");

  private final AtomicReference<Instant> now;
  private final ZoneId zone;

  public MutableClock() {
    this(DEFAULT_START);
  }

  public MutableClock(Instant start) {
    this(new AtomicReference<>(Objects.requireNonNull(start, "start")), ZoneOffset.UTC);
  }

  private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  /** Moves time forward (or back, with a negative duration). */
  public void advance(Duration duration) {
    now.updateAndGet(t -> t.plus(duration));
  }

  public void set(Instant instant) {
    now.set(Objects.requireNonNull(instant, "instant"));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public long millis() {
    return now.get().toEpochMilli();
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  /** A view in another zone that shares this clock's time: moving either moves both. */
  @Override
  public Clock withZone(ZoneId zone) {
    return zone.equals(this.zone) ? this : new MutableClock(now, zone);
  }

  @Override
  public String toString() {
    return "MutableClock[" + now.get() + "]";
  }
}
