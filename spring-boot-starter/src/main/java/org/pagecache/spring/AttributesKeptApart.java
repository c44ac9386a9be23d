package org.pagecache.spring;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A view of a request for a trial handler lookup: attributes it sets or removes stay in the view,
 * reads see the view's changes over the real request. Spring's handler mapping writes the matched
 * pattern, URI variables and the parsed path as attributes; the real dispatch must not find a
 * lookup's leftovers. (Spring's {@code HandlerMappingIntrospector} protects the request the same way.)
 */
final class AttributesKeptApart extends HttpServletRequestWrapper {
  private static final Object REMOVED = new Object();
  private final Map<String, Object> changes = new HashMap<>();

  AttributesKeptApart(HttpServletRequest request) {
    super(request);
  }

  @Override
  public Object getAttribute(String name) {
    Object v = changes.get(name);
    if (v == REMOVED) {
      return null;
    }
    return v != null ? v : super.getAttribute(name);
  }

  @Override
  public Enumeration<String> getAttributeNames() {
    Set<String> names = new LinkedHashSet<>(Collections.list(super.getAttributeNames()));
    changes.forEach((k, v) -> {
      if (v == REMOVED) {
        names.remove(k);
      } else {
        names.add(k);
      }
    });
    return Collections.enumeration(names);
  }

  @Override
  public void setAttribute(String name, Object value) {
    changes.put(name, value == null ? REMOVED : value);
  }

  @Override
  public void removeAttribute(String name) {
    changes.put(name, REMOVED);
  }
}
