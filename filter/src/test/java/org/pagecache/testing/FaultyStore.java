package org.pagecache.testing;

import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * A store that answers like its delegate, or throws {@link StoreException} while it is "down": for
 * unit tests of what sits above the store (the circuit breaker, the counters' fallbacks). Tests of
 * memcached failing stop a real memcached instead.
 */
public final class FaultyStore extends ForwardingStore {
  private final BooleanSupplier down;

  public FaultyStore(Store delegate, BooleanSupplier down) {
    super(delegate);
    this.down = down;
  }

  private void check() {
    if (down.getAsBoolean()) {
      throw new StoreException("test: store is down");
    }
  }

  @Override
  protected <T> T forward(String op, Collection<String> keys, Supplier<T> call) {
    check();
    return call.get();
  }

  @Override
  public List<ServerStats> serverStats() {
    check();
    return delegate.serverStats();
  }

  @Override
  public String describe() {
    return "faulty " + delegate.describe();
  }

  /** The delegate belongs to the test, which may go on using it. */
  @Override
  public void close() {}
}
