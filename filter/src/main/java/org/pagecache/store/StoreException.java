package org.pagecache.store;

/** The store could not answer: down, unreachable, or slower than the op timeout. */
public class StoreException extends RuntimeException {
  /** A failure the memcached client reported, with the client's exception as the cause. */
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A failure without an underlying exception, e.g. the store is considered down and not called. */
  public StoreException(String message) {
    super(message);
  }
}
