package org.pagecache.spring;

import java.util.function.Supplier;
import org.pagecache.PageCache;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;

/**
 * Spring Security's {@code SecurityContextHolder} watched while a signed-in member's page is built
 * for their group (issue 35, docs/fragments.md): a read of the context by the application's code
 * (a controller, a view's {@code sec:} dialect or taglib, {@code @AuthenticationPrincipal}, method
 * security) is a read of the principal past the request, so the page stays the member's
 * ({@link PageCache#principalRead}). Installed once, wrapping the strategy in place, before the
 * application's beans are made, so that components that keep the strategy they found read through it.
 *
 * <p>Not the application's reads, not counted: Spring Security's own web machinery when it runs
 * inside a build (its filters on a FORWARD or INCLUDE dispatch, its servlet-API request wrapper,
 * whose answers PageCache's request wrapper judges, the context handed to an async task). Outside a
 * build (the security filters before PageCache, PageCache's group check, a hit) a read costs one
 * thread-local look-up.
 */
final class SecurityContextWatch implements SecurityContextHolderStrategy {
  private static final StackWalker WALKER = StackWalker.getInstance();
  private final SecurityContextHolderStrategy delegate;

  private SecurityContextWatch(SecurityContextHolderStrategy delegate) {
    this.delegate = delegate;
  }

  /** Wraps the holder's strategy, once per JVM (a second application context finds it wrapped). */
  static synchronized void install() {
    SecurityContextHolderStrategy current = SecurityContextHolder.getContextHolderStrategy();
    if (!(current instanceof SecurityContextWatch)) {
      SecurityContextHolder.setContextHolderStrategy(new SecurityContextWatch(current));
    }
  }

  @Override
  public SecurityContext getContext() {
    watch();
    return delegate.getContext();
  }

  @Override
  public Supplier<SecurityContext> getDeferredContext() {
    Supplier<SecurityContext> deferred = delegate.getDeferredContext();
    return () -> {
      watch();
      return deferred.get();
    };
  }

  private void watch() {
    if (PageCache.buildingForGroup() && readByApplication()) {
      PageCache.principalRead();
    }
  }

  /** The first caller past this class and the holder is not Spring Security's web machinery. */
  private static boolean readByApplication() {
    return WALKER.walk(frames -> frames
        .map(StackWalker.StackFrame::getClassName)
        .dropWhile(c -> c.equals(SecurityContextWatch.class.getName()) || c.startsWith(SecurityContextWatch.class.getName() + "$")
            || c.startsWith("org.springframework.security.core.context."))
        .findFirst()
        .map(caller -> !frameworkReader(caller))
        .orElse(true));
  }

  /**
   * Spring Security's web filters, request wrapper and async integration read the context for
   * themselves; its MVC argument resolvers ({@code web.method}, {@code web.bind}) hand it to the
   * application and count.
   */
  static boolean frameworkReader(String className) {
    if (className.startsWith("org.springframework.security.web.method.")
        || className.startsWith("org.springframework.security.web.bind.")) {
      return false;
    }
    return className.startsWith("org.springframework.security.web.")
        || className.startsWith("org.springframework.security.concurrent.")
        || className.startsWith("org.springframework.security.task.")
        || className.startsWith("org.springframework.security.scheduling.");
  }

  @Override
  public void clearContext() {
    delegate.clearContext();
  }

  @Override
  public void setContext(SecurityContext context) {
    delegate.setContext(context);
  }

  @Override
  public void setDeferredContext(Supplier<SecurityContext> deferredContext) {
    delegate.setDeferredContext(deferredContext);
  }

  @Override
  public SecurityContext createEmptyContext() {
    return delegate.createEmptyContext();
  }
}
