package org.pagecache.counters;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.pagecache.testing.MutableClock;

/**
 * What every counters test needs: a backend (in-process or real memcached), a clock the test
 * moves, a namespace of its own (so tests sharing a memcached never see each other's keys) and
 * "frontends": {@link Counters} instances, each with its own store client, as separate JVMs
 * would have. Subclasses choose the backend.
 */
abstract class CountersFixture {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  /** 2030-01-01T00:00:00Z: a whole minute, so bucket and window boundaries are easy to reason about. */
  final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  final Namespace namespace = new Namespace("t" + ProcessHandle.current().pid() + "x" + NAMESPACES.incrementAndGet());
  private final List<AutoCloseable> opened = new ArrayList<>();

  abstract Backend backend();

  Store store() {
    Store store = backend().connect();
    opened.add(store);
    return store;
  }

  Counters frontend(UnaryOperator<Counters.Builder> customise) {
    return frontend(store(), customise);
  }

  Counters frontend(Store store, UnaryOperator<Counters.Builder> customise) {
    Counters counters = customise.apply(Counters.builder(store, namespace).clock(clock)).build();
    opened.add(0, counters);
    return counters;
  }

  @AfterEach
  void closeFrontends() throws Exception {
    backend().up();
    for (AutoCloseable c : opened) {
      c.close();
    }
  }
}
