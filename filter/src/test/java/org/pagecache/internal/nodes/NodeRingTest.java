package org.pagecache.internal.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ring that places keys: stable across JVMs, weighted, and consistent when a node is added. */
class NodeRingTest {
  private static final List<String> THREE = List.of("10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211");

  @Test
  void everyJvmPlacesAKeyOnTheSameNode() {
    NodeRing a = new NodeRing(THREE, List.of(1, 1, 1));
    NodeRing b = new NodeRing(THREE, List.of(1, 1, 1));
    for (int i = 0; i < 1000; i++) {
      assertEquals(a.node("key-" + i), b.node("key-" + i));
    }
  }

  @Test
  void theReplicaOrderStartsWithTheOwnerAndNamesEveryNodeOnce() {
    NodeRing ring = new NodeRing(THREE, List.of(1, 1, 1));
    for (int i = 0; i < 200; i++) {
      List<Integer> order = ring.order("key-" + i);
      assertEquals(ring.node("key-" + i), order.get(0));
      assertEquals(3, new HashSet<>(order).size());
    }
  }

  @Test
  void aNodeWithWeightTwoOwnsAboutHalfOfFourWeightUnits() {
    NodeRing ring = new NodeRing(THREE, List.of(1, 1, 2));
    int[] owned = new int[3];
    for (int i = 0; i < 30_000; i++) {
      owned[ring.node("page-" + i)]++;
    }
    assertTrue(owned[2] > 12_000 && owned[2] < 18_000, "weight 2 of 4: " + owned[2] + " of 30000");
  }

  @Test
  void addingAFourthNodeMovesOnlyKeysToIt() {
    NodeRing three = new NodeRing(THREE, List.of(1, 1, 1));
    NodeRing four = new NodeRing(List.of(THREE.get(0), THREE.get(1), THREE.get(2), "10.0.0.4:11211"), List.of(1, 1, 1, 1));
    int moved = 0;
    for (int i = 0; i < 10_000; i++) {
      int before = three.node("page-" + i);
      int after = four.node("page-" + i);
      if (before != after) {
        moved++;
        assertEquals(3, after, "a key that moves goes to the new node");
      }
    }
    assertTrue(moved > 1_500 && moved < 3_500, "about a quarter moved: " + moved);
  }
}
