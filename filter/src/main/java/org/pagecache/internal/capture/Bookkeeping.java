package org.pagecache.internal.capture;

import java.util.Set;

/**
 * Frameworks' reads of the principal that never reach the page: Spring MVC's
 * {@code FrameworkServlet} reads the user's name for its request-handled event after the response
 * is written, on every request (on by default in Spring Boot). Seen through the caller's frame, only
 * when a signed-in visitor's build reads the principal: never on a hit.
 */
final class Bookkeeping {
  /** {@code class#method} of the readers whose use of the principal is bookkeeping. */
  private static final Set<String> READERS = Set.of(
      "org.springframework.web.servlet.FrameworkServlet#getUsernameForRequest");
  private static final StackWalker WALKER = StackWalker.getInstance();

  private Bookkeeping() {}

  /** True when the code that asked the request for its principal is a known bookkeeping reader. */
  static boolean calledFrom() {
    return WALKER.walk(frames -> frames
        .dropWhile(f -> f.getClassName().equals(WatchedRequest.class.getName()) || f.getClassName().equals(Bookkeeping.class.getName()))
        .limit(1)
        .anyMatch(f -> READERS.contains(f.getClassName() + "#" + f.getMethodName())));
  }
}
