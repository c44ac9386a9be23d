package org.pagecache.internal.nodes;

import java.util.List;

/** The nodes of one pool (the main cluster, the gutter or a named pool) with their ring. */
record Pool(String name, List<Node> nodes, NodeRing ring) {
  Node owner(String key) {
    return nodes.get(ring.node(key));
  }
}
