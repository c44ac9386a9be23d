package org.pagecache.internal.capture;

/**
 * The signed-in visitor's build for sharing that runs on this thread, if any, so that a read of the
 * visitor past the request (a thread-local: Spring Security's {@code SecurityContextHolder}, the
 * application's own "current user") can count as a read of the principal ({@code PageCache.principalRead()}).
 * Open only while the handler runs ({@link #enter}): reads by the filters before PageCache, by its own
 * group check and by the fragments' renderers fall outside. A read made while PageCache's request
 * wrapper answers {@code getUserPrincipal}, {@code getRemoteUser} or {@code isUserInRole} (a security
 * framework's request wrapper asks its thread-local) is the wrapper's to judge, not counted twice.
 */
public final class BuildThread {
  private static final ThreadLocal<State> CURRENT = new ThreadLocal<>();

  private BuildThread() {}

  private static final class State {
    final WatchedRequest build;
    final State outer;
    int answering; // > 0 while the wrapper answers a principal or role question

    State(WatchedRequest build, State outer) {
      this.build = build;
      this.outer = outer;
    }
  }

  /** Closes what {@link #enter} opened: the thread's previous state (an enclosing build, or none) comes back. */
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  private static final Scope NOTHING = () -> {};

  /** The handler of {@code build} runs on this thread until the scope closes; null opens nothing. */
  public static Scope enter(WatchedRequest build) {
    if (build == null) {
      return NOTHING;
    }
    State outer = CURRENT.get();
    CURRENT.set(new State(build, outer));
    return () -> {
      if (outer == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(outer);
      }
    };
  }

  /** True while a signed-in visitor's build for sharing runs on this thread and would count a read of the visitor. */
  public static boolean watching() {
    State s = CURRENT.get();
    return s != null && s.answering == 0 && s.build.watchesPrincipal();
  }

  /** The application read the visitor past the request: the build on this thread, if any, is personal. */
  public static void principalRead() {
    State s = CURRENT.get();
    if (s != null && s.answering == 0) {
      s.build.principalReadPastRequest();
    }
  }

  /** Marks the wrapper's own principal and role questions to the request it wraps (see the class comment). */
  static Scope answering() {
    State s = CURRENT.get();
    if (s == null) {
      return NOTHING;
    }
    s.answering++;
    return () -> s.answering--;
  }
}
