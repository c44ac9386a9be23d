package org.pagecache.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One memcached slab class, from {@code stats slabs} keys such as {@code 1:chunk_size},
 * {@code 1:chunks_per_page}, {@code 1:total_pages}, {@code 1:used_chunks}. memcached 1.6 no longer
 * reports {@code mem_requested} there (1.4 did); when present it is the used figure, otherwise used
 * chunks times chunk size is.
 */
record SlabClass(int id, long chunkSize, long chunksPerPage, long totalPages, long totalChunks, long usedChunks,
    Long memRequested) {

  /** Memory memcached has assigned to this class: its pages (1 MB each by default). */
  long allocatedBytes() {
    return totalPages * chunksPerPage * chunkSize;
  }

  /** Memory holding items: requested bytes when reported, else used chunks. */
  long usedBytes() {
    return memRequested != null ? memRequested : usedChunks * chunkSize;
  }

  /** The classes in a {@code stats slabs} map, by id; summary keys (active_slabs, total_malloced) are skipped. */
  static List<SlabClass> parse(Map<String, String> slabs) {
    Map<Integer, Map<String, String>> byClass = new TreeMap<>();
    for (Map.Entry<String, String> e : slabs.entrySet()) {
      String key = e.getKey();
      int colon = key.indexOf(':');
      if (colon < 1) {
        continue;
      }
      int id;
      try {
        id = Integer.parseInt(key.substring(0, colon));
      } catch (NumberFormatException ex) {
        continue;
      }
      byClass.computeIfAbsent(id, k -> new TreeMap<>()).put(key.substring(colon + 1), e.getValue());
    }
    List<SlabClass> classes = new ArrayList<>();
    for (Map.Entry<Integer, Map<String, String>> e : byClass.entrySet()) {
      Map<String, String> s = e.getValue();
      Long chunkSize = Snapshot.number(s, "chunk_size");
      if (chunkSize == null) {
        continue;
      }
      classes.add(new SlabClass(e.getKey(), chunkSize, orZero(s, "chunks_per_page"), orZero(s, "total_pages"),
          orZero(s, "total_chunks"), orZero(s, "used_chunks"), Snapshot.number(s, "mem_requested")));
    }
    return List.copyOf(classes);
  }

  private static long orZero(Map<String, String> s, String name) {
    Long v = Snapshot.number(s, name);
    return v == null ? 0 : v;
  }
}
