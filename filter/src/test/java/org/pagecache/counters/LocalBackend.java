package org.pagecache.counters;

import java.time.Clock;
import org.pagecache.store.LocalStore;
import org.pagecache.store.Store;
import org.pagecache.testing.FaultyStore;
import org.pagecache.testing.MutableClock;

/** One in-process store shared by all "frontends", expiring by a clock the test moves. */
final class LocalBackend implements Backend {
  private final MutableClock clock;
  private final LocalStore shared;
  private volatile boolean down;

  LocalBackend(MutableClock clock) {
    this.clock = clock;
    this.shared = new LocalStore(clock, 64L * 1024 * 1024);
  }

  @Override
  public Store connect() {
    return new FaultyStore(shared, () -> down);
  }

  @Override
  public Clock expiryClock() {
    return clock;
  }

  @Override
  public void down() {
    down = true;
  }

  @Override
  public void up() {
    down = false;
  }
}
