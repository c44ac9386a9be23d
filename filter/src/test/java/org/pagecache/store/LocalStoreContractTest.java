package org.pagecache.store;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.pagecache.testing.MutableClock;

/** The contract on the in-process store; time is a {@link MutableClock}, so no test waits. */
class LocalStoreContractTest extends StoreContractTest {
  private final MutableClock clock = new MutableClock();

  @Override
  protected Store newStore() {
    return new LocalStore(clock, 64L * 1024 * 1024);
  }

  @Override
  protected boolean letTtlPass(Duration ttl, BooleanSupplier expired) {
    clock.advance(ttl.plusSeconds(1));
    return expired.getAsBoolean();
  }

  @Override
  protected Instant storeNow() {
    return clock.instant();
  }

  @Override
  protected int serverCount() {
    return 1;
  }
}
