package org.pagecache;

import jakarta.servlet.ServletRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a handler declares about the page it builds ({@link PageCache#tag}, {@link
 * PageCache#countView}) and about its visitor ({@link PageCache#personal}): lists kept in request attributes, the application's channel to the cache
 * (the cache's own parts pass nothing to each other this way).
 */
final class Declared {
  static final String TAGS_ATTRIBUTE = "org.pagecache.tags";
  static final String VIEWS_ATTRIBUTE = "org.pagecache.views";
  static final String PERSONAL_ATTRIBUTE = "org.pagecache.personal";

  private Declared() {}

  /** The tags declared for the page being built, to add to. */
  static List<String> tags(ServletRequest request) {
    return list(request, TAGS_ATTRIBUTE);
  }

  /** The objects whose view counters the page counts, to add to. */
  static List<String> views(ServletRequest request) {
    return list(request, VIEWS_ATTRIBUTE);
  }

  /** The signed-in visitor's personal values declared for this request, to add to. */
  static List<String> personal(ServletRequest request) {
    return list(request, PERSONAL_ATTRIBUTE);
  }

  /** The personal values declared for this request so far, a copy; none when nothing was declared (nothing is created). */
  @SuppressWarnings("unchecked")
  static List<String> personalDeclared(ServletRequest request) {
    Object list = request.getAttribute(PERSONAL_ATTRIBUTE);
    if (!(list instanceof List<?>)) {
      return List.of();
    }
    synchronized (list) {
      return List.copyOf((List<String>) list);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<String> list(ServletRequest request, String name) {
    Object list = request.getAttribute(name);
    if (list == null) {
      list = Collections.synchronizedList(new ArrayList<String>());
      request.setAttribute(name, list);
    }
    return (List<String>) list;
  }
}
