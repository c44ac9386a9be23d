package org.pagecache.internal.nodes;

import java.util.function.Supplier;
import org.pagecache.store.StoreException;

/**
 * One memcached node as the cluster uses it: its single-server store, its breaker, the pool it
 * belongs to, and whether it is emptied before it is used again after an outage (so that a write
 * it missed cannot come back from it). A memcached proxy is never emptied: {@code flush_all}
 * would be refused, or would empty every server behind it.
 */
final class Node {
  final String name;
  final NodeClient store;
  final NodeHealth health;
  final String pool;
  private final boolean emptiedUnlessProxy;
  private final UnexpectedErrors unexpected;

  Node(String name, NodeClient store, NodeHealth health, String pool, boolean emptiedOnReturn,
      UnexpectedErrors unexpected) {
    this.name = name;
    this.store = store;
    this.health = health;
    this.pool = pool;
    this.emptiedUnlessProxy = emptiedOnReturn;
    this.unexpected = unexpected;
  }

  boolean emptiedOnReturn() {
    return emptiedUnlessProxy && !store.proxy();
  }

  boolean gutter() {
    return pool.equals(ClusterStore.GUTTER);
  }

  boolean main() {
    return pool.equals(ClusterStore.MAIN);
  }

  /**
   * One call to the node, its outcome told to the breaker. An error a proxy answered is the
   * call's failure only: the proxy is up, one server behind it is not (the proxy ejects it).
   */
  <T> T call(Supplier<T> op) {
    try {
      T result = op.get();
      health.succeeded();
      return result;
    } catch (StoreException e) {
      if (store.answeredByProxy(e)) {
        health.succeeded();
        throw e;
      }
      if (UnexpectedErrors.unexpected(e)) {
        unexpected.maybeLog(name, e);
      }
      health.failed(cause(e));
      throw e;
    }
  }

  /** The reason without the key (the log line names the node). */
  static String cause(StoreException e) {
    String message = String.valueOf(e.getMessage());
    int at = message.indexOf("failed: ");
    return at >= 0 ? message.substring(at + "failed: ".length()) : message;
  }
}
