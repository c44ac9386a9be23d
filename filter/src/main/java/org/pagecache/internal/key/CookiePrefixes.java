package org.pagecache.internal.key;

import java.util.Arrays;

/**
 * The {@code prefix*} patterns of the ignore list, held as a character trie: whether a cookie name
 * starts with any of them is answered in one walk over the name's characters, at most its length
 * in steps (each a binary search among the characters that follow), whatever the number of
 * patterns, and without allocating. It runs for every cookie of every request, on the hit path.
 */
final class CookiePrefixes {
  private final Node root = new Node();

  void add(String prefix) {
    Node node = root;
    for (int i = 0; i < prefix.length(); i++) {
      node = node.childOrAdd(prefix.charAt(i));
    }
    node.end = true;
  }

  /** Whether {@code name} starts with one of the prefixes. */
  boolean matches(String name) {
    Node node = root;
    for (int i = 0; i < name.length(); i++) {
      if (node.end) {
        return true;
      }
      node = node.child(name.charAt(i));
      if (node == null) {
        return false;
      }
    }
    return node.end;
  }

  private static final class Node {
    private char[] chars = new char[0]; // sorted
    private Node[] children = new Node[0];
    private boolean end;

    Node child(char c) {
      int i = Arrays.binarySearch(chars, c);
      return i < 0 ? null : children[i];
    }

    Node childOrAdd(char c) {
      int i = Arrays.binarySearch(chars, c);
      if (i >= 0) {
        return children[i];
      }
      int at = -i - 1;
      char[] moreChars = new char[chars.length + 1];
      Node[] moreChildren = new Node[chars.length + 1];
      System.arraycopy(chars, 0, moreChars, 0, at);
      System.arraycopy(children, 0, moreChildren, 0, at);
      System.arraycopy(chars, at, moreChars, at + 1, chars.length - at);
      System.arraycopy(children, at, moreChildren, at + 1, chars.length - at);
      moreChars[at] = c;
      moreChildren[at] = new Node();
      chars = moreChars;
      children = moreChildren;
      return moreChildren[at];
    }
  }
}
