package org.pagecache.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Store;

/**
 * A store that passes every call to its delegate (a real memcached store in the tests) and
 * remembers the keys it was handed, before the delegate validates them: so a test can assert
 * which keys the code under test really used, e.g. that a hostile URL became a valid memcached key.
 *
 * <pre>{@code
 * RecordingStore store = new RecordingStore(new MemcachedStore(settings));
 * site.store(store).start();
 * store.clear();
 * site.get("/page/caf%C3%A9");
 * assertEquals(1, store.keys("set").size());
 * }</pre>
 */
public final class RecordingStore extends ForwardingStore {
  /** One key handed to the store, with the operation's name (get, getMulti, set, add, ...). */
  public record Call(String op, String key) {}

  private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();

  public RecordingStore(Store delegate) {
    super(delegate);
  }

  /** Recording a real memcached store on {@code servers}: text protocol, one connection, the tests' timeouts. */
  public static RecordingStore onMemcached(String servers) {
    return new RecordingStore(new MemcachedStore(new MemcachedStore.Settings(servers, false, Duration.ofSeconds(1),
        MemcachedExtension.TEST_OP_TIMEOUT, 1)));
  }

  /** Every key handed to the store since the last {@link #clear}, in order. */
  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /** The keys of one operation since the last {@link #clear}, in order. */
  public List<String> keys(String op) {
    List<String> keys = new ArrayList<>();
    for (Call c : calls) {
      if (c.op.equals(op)) {
        keys.add(c.key);
      }
    }
    return keys;
  }

  public void clear() {
    calls.clear();
  }

  @Override
  protected <T> T forward(String op, Collection<String> keys, Supplier<T> call) {
    if (op.equals("addThenGetMulti")) { // recorded as what it is: an add, then a multi-get
      List<String> all = List.copyOf(keys);
      calls.add(new Call("add", all.get(0)));
      all.subList(1, all.size()).forEach(key -> calls.add(new Call("getMulti", key)));
    } else {
      keys.forEach(key -> calls.add(new Call(op, key)));
    }
    return call.get();
  }

  @Override
  public String describe() {
    return "recording " + delegate.describe();
  }
}
