package org.pagecache.internal.capture;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * Servlet 6.1's {@code sendRedirect(location, status, clearBuffer)} on a response whose class may
 * predate it: PageCache compiles against Servlet 6.0 but runs on Tomcat 11 (6.1) too, where a
 * handler asks for a 301 or 308. Calling the one-argument form there would send a 302, which
 * browsers and crawlers treat differently (a permanent move becomes temporary; 307/308 keep the
 * method, 302 may not). So the response's own three-argument method is called when its class has
 * one (looked up once per class), else the redirect is emulated: the buffer reset when asked,
 * status and Location set, the response flushed so it is committed as after a real redirect. The
 * emulated Location is sent as given (relative locations are valid HTTP, RFC 9110 10.2.2).
 */
final class StatusRedirect {
  private static final ClassValue<Optional<Method>> METHOD = new ClassValue<>() {
    @Override
    protected Optional<Method> computeValue(Class<?> type) {
      try {
        return Optional.of(type.getMethod("sendRedirect", String.class, int.class, boolean.class));
      } catch (NoSuchMethodException e) {
        return Optional.empty();
      }
    }
  };

  private StatusRedirect() {}

  static void send(HttpServletResponse target, String location, int sc, boolean clearBuffer) throws IOException {
    Optional<Method> method = METHOD.get(target.getClass());
    if (method.isPresent()) {
      try {
        method.get().invoke(target, location, sc, clearBuffer);
        return;
      } catch (IllegalAccessException e) {
        // a class we may not call: emulate below
      } catch (InvocationTargetException e) {
        if (!(e.getCause() instanceof AbstractMethodError)) { // a 6.0 implementation under a 6.1 API jar
          throw unwrap(e);
        }
      }
    }
    emulate(target, location, sc, clearBuffer);
  }

  static void emulate(HttpServletResponse target, String location, int sc, boolean clearBuffer) throws IOException {
    if (target.isCommitted()) {
      throw new IllegalStateException("response already committed");
    }
    if (clearBuffer) {
      target.resetBuffer();
    }
    target.setStatus(sc);
    target.setHeader("Location", location);
    target.flushBuffer();
  }

  private static IOException unwrap(InvocationTargetException e) {
    Throwable cause = e.getCause();
    if (cause instanceof IOException io) {
      return io;
    }
    if (cause instanceof RuntimeException re) {
      throw re;
    }
    if (cause instanceof Error err) {
      throw err;
    }
    return new IOException(cause);
  }
}
