package org.pagecache.internal.nodes;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which node holds a key: consistent hashing as Ketama does it (MD5, 160 points per weight unit),
 * computed here rather than by xmemcached so that a node that fails keeps its keys. xmemcached
 * would rehash them onto the healthy nodes, which both loads them and lets an entry written there
 * meanwhile disagree with the old one when the node returns (Facebook's memcache paper, §3.3).
 *
 * <p>Pure: the same names and weights give the same placement in every JVM.
 */
final class NodeRing {
  private static final int POINTS_PER_WEIGHT = 160;

  private final TreeMap<Long, Integer> points = new TreeMap<>();
  private final int size;

  /** {@code names[i]} with {@code weights[i]}; node indexes follow the lists' order. */
  NodeRing(List<String> names, List<Integer> weights) {
    if (names.isEmpty() || names.size() != weights.size()) {
      throw new IllegalArgumentException("need one weight per node: " + names + " " + weights);
    }
    this.size = names.size();
    for (int i = 0; i < size; i++) {
      int count = POINTS_PER_WEIGHT * weights.get(i);
      for (int p = 0; p < count / 4; p++) {
        byte[] digest = md5(names.get(i) + "-" + p);
        for (int h = 0; h < 4; h++) {
          points.putIfAbsent(point(digest, h), i);
        }
      }
    }
  }

  /** The node that owns the key. */
  int node(String key) {
    if (size == 1) {
      return 0; // one node owns every key: no digest to compute on every call
    }
    Map.Entry<Long, Integer> e = points.ceilingEntry(point(md5(key), 0));
    return (e != null ? e : points.firstEntry()).getValue();
  }

  /**
   * Every node, the key's owner first, then the others in the order the ring meets them: the
   * order in which replicas of a key are read, so all JVMs agree on it.
   */
  List<Integer> order(String key) {
    List<Integer> order = new ArrayList<>(size);
    long start = point(md5(key), 0);
    for (int node : points.tailMap(start, true).values()) {
      addNew(order, node);
      if (order.size() == size) {
        return order;
      }
    }
    for (int node : points.values()) {
      addNew(order, node);
      if (order.size() == size) {
        break;
      }
    }
    return order;
  }

  int size() {
    return size;
  }

  private static void addNew(List<Integer> order, int node) {
    if (!order.contains(node)) {
      order.add(node);
    }
  }

  private static long point(byte[] d, int h) {
    return ((long) (d[3 + h * 4] & 0xFF) << 24) | ((long) (d[2 + h * 4] & 0xFF) << 16)
        | ((long) (d[1 + h * 4] & 0xFF) << 8) | (d[h * 4] & 0xFF);
  }

  private static byte[] md5(String s) {
    try {
      return MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is required of every Java runtime", e);
    }
  }
}
