package org.pagecache.store;

/** The store could not answer: down, unreachable, or slower than the op timeout. */
public class StoreException extends RuntimeException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public StoreException(String message) {
    super(message);
  }
}
