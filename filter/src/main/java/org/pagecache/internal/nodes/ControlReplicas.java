package org.pagecache.internal.nodes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.pagecache.store.Store.Versioned;
import org.pagecache.store.StoreException;

/**
 * Control keys (update tokens, tag versions) on every main node that is up. Their values are
 * numbers that only grow, so replicas are merged by taking the largest, and a write raises each
 * node to at least the new value. A node that misses a write, in a cluster of several, is taken
 * out at once and emptied before it is read again: no node ever answers an older value than one
 * a write was acknowledged with.
 */
final class ControlReplicas {
  private final Pool main;

  ControlReplicas(Pool main) {
    this.main = main;
  }

  /** The main nodes that are up, in the key's ring order (the same order in every JVM). */
  List<Node> up(String key) {
    List<Node> up = new ArrayList<>(main.nodes().size());
    for (int i : main.ring().order(key)) {
      Node n = main.nodes().get(i);
      if (n.health.admits()) {
        up.add(n);
      }
    }
    if (up.isEmpty()) {
      throw new StoreException("memcached: every node of the main cluster is down");
    }
    return up;
  }

  boolean several() {
    return main.nodes().size() > 1;
  }

  /** The largest value any node that is up holds, that value also as the cas unique; null when none has it. */
  Versioned largest(String key) {
    Versioned best = null;
    long bestValue = -1;
    StoreException failure = null;
    int answered = 0;
    for (Node n : up(key)) {
      try {
        Versioned v = n.call(() -> n.store.gets(key));
        answered++;
        long value = v == null ? -1 : ControlValues.parse(v.value());
        if (v != null && value > bestValue) {
          bestValue = value;
          best = new Versioned(v.value(), value);
        }
      } catch (StoreException e) {
        failure = e;
      }
    }
    if (answered == 0) {
      throw failure;
    }
    return best;
  }

  /**
   * Raises every node that is up and holds at most {@code expected} to {@code value}; false when a
   * node already holds more (another writer won: read again).
   */
  boolean raise(String key, byte[] value, long expected, int ttlSeconds) {
    boolean raised = false;
    StoreException failure = null;
    for (Node n : up(key)) {
      try {
        if (n.call(() -> ControlValues.raise(n.store, key, value, expected, ttlSeconds)) == ControlValues.Raise.OVERTAKEN) {
          return raised;
        }
        raised = true;
      } catch (StoreException e) {
        missedWrite(n, e);
        failure = e;
      }
    }
    if (!raised && failure != null) {
      throw failure;
    }
    return raised;
  }

  /** Runs a write on every node that is up; the first node's answer; fails only if all fail. */
  boolean everywhere(String key, Predicate<Node> op) {
    Boolean first = null;
    StoreException failure = null;
    for (Node n : up(key)) {
      try {
        boolean result = n.call(() -> op.test(n));
        if (first == null) {
          first = result;
        }
      } catch (StoreException e) {
        missedWrite(n, e);
        failure = e;
      }
    }
    if (first == null) {
      throw failure;
    }
    return first;
  }

  /**
   * Control keys that {@code read} lacked, from the other nodes that are up (the largest of each),
   * and put back on {@code read} (add: never over a newer one written meanwhile).
   */
  Map<String, byte[]> fillIn(List<String> keys, Node read) {
    Map<String, byte[]> largest = new HashMap<>();
    if (keys.isEmpty() || !several()) {
      return largest;
    }
    for (Node n : up(keys.get(0))) {
      if (n == read) {
        continue;
      }
      try {
        n.call(() -> n.store.getMulti(keys)).forEach((key, value) -> largest.merge(key, value,
            (a, b) -> ControlValues.parse(a) >= ControlValues.parse(b) ? a : b));
      } catch (StoreException e) {
        // the value from the nodes that answered; none at all reads as missing, as before
      }
    }
    largest.forEach((key, value) -> {
      try {
        read.call(() -> read.store.add(key, value, 0));
      } catch (StoreException e) {
        // the next read repairs it
      }
    });
    return largest;
  }

  /** A node that missed a control write would answer an older value: out, and emptied before it is read again. */
  private void missedWrite(Node n, StoreException e) {
    if (several() && !n.store.answeredByProxy(e)) { // a proxy is never emptied: taking it out would gain nothing
      n.health.forceDown(Node.cause(e));
    }
  }
}
