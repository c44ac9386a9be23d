package org.pagecache.internal.gzip;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.zip.Deflater;

/**
 * A few reusable objects in slots taken and given back with one atomic swap each: no lock, so
 * request threads never queue behind each other for a codec (a lock-based queue made them park).
 * An object made when every slot is empty, or given back when every slot is full, is simply made
 * or ended.
 */
public final class Pool<T> {
  private final AtomicReferenceArray<T> slots;
  private final Supplier<T> make;
  private final Consumer<T> end;

  /** Raw deflaters (no zlib header or trailer) at {@code level}. */
  public static Pool<Deflater> deflaters(int size, int level) {
    return new Pool<>(size, () -> new Deflater(level, true), Deflater::end);
  }

  public Pool(int size, Supplier<T> make, Consumer<T> end) {
    this.slots = new AtomicReferenceArray<>(size);
    this.make = make;
    this.end = end;
  }

  /** A kept object, or a new one when every slot is empty. */
  public T take() {
    int n = slots.length();
    int start = (int) (Thread.currentThread().getId() % n);
    for (int i = 0; i < n; i++) {
      int at = (start + i) % n;
      if (slots.getPlain(at) != null) {
        T t = slots.getAndSet(at, null);
        if (t != null) {
          return t;
        }
      }
    }
    return make.get();
  }

  /** Keeps the object for the next {@link #take}, or ends it when every slot is full. */
  public void giveBack(T t) {
    int n = slots.length();
    int start = (int) (Thread.currentThread().getId() % n);
    for (int i = 0; i < n; i++) {
      int at = (start + i) % n;
      if (slots.getPlain(at) == null && slots.compareAndSet(at, null, t)) {
        return;
      }
    }
    end.accept(t);
  }
}
