package org.pagecache.internal.capture;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a handler used of the visitor's session while a page was built, as far as PageCache's
 * request wrapper sees it (docs/safety.md, "Sessions"): the attribute names it asked for, and the
 * first use that may have put session data into the page (an attribute that had a value, a write,
 * the id, the list of names, a CSRF token read from the request). Names only, never values.
 *
 * <p>Reads made through objects captured before PageCache's filter never reach the wrapper; the
 * build is also checked for session values in its body ({@link SessionValuesInBody}).
 */
public final class SessionReads {
  /** Attribute names kept per build: enough for evidence, bounded whatever a handler does. */
  static final int MAX_NAMES = 32;

  private final Set<String> names = new LinkedHashSet<>();
  private String firstUse;
  private boolean paused;

  /** Uses between an async dispatch and the filter (filters before PageCache's) are not the page's. */
  synchronized void pause(boolean paused) {
    this.paused = paused;
  }

  /** An attribute asked for by name; {@code found} when the session held a value for it. */
  synchronized void attribute(String name, boolean found) {
    if (paused) {
      return;
    }
    if (names.size() < MAX_NAMES) {
      names.add(name);
    }
    if (found) {
      used("attribute:" + name);
    }
  }

  /** A use of the session that may put its data in the page (cause as the evidence shows it). */
  synchronized void used(String cause) {
    if (firstUse == null && !paused) {
      firstUse = cause;
    }
  }

  /** The attribute names asked for, found or not, in the order first asked. */
  public synchronized List<String> names() {
    return names.isEmpty() ? List.of() : Collections.unmodifiableList(new ArrayList<>(names));
  }

  /** The first use that may have put session data in the page, or null when there was none. */
  public synchronized String firstUse() {
    return firstUse;
  }
}
