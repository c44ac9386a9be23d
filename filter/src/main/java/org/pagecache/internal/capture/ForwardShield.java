package org.pagecache.internal.capture;

import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * What the capture shows below itself in the wrapper chain, so that a forward closes the capture and
 * not the client's response under it (issue 39).
 *
 * <p>Servlet 6 §9.4: when {@code forward} returns, "the response content must be sent and committed,
 * and closed by the servlet container". Tomcat 11 does that by unwrapping the response it was given
 * down to its own {@code ResponseFacade} and suspending it (the Context's
 * {@code suspendWrappedResponseAfterForward}, true by default from 11.0): whatever the filter writes
 * to the client afterwards is dropped, so a page built through a forward went out blank, and a
 * {@code sendError} replayed after it threw ("response has been committed"). Where the chain ends in
 * something that is not Tomcat's response, Tomcat closes the writer or stream of the response the
 * forward was given instead: the capture's, which is what a forward inside a capture must close.
 *
 * <p>So on Tomcat the capture ends its chain with a view of the client's response that is no
 * {@link ServletResponseWrapper}: every call reaches the client's response as before, but the
 * unwrapping stops there. Jetty 12 keeps the chain whole: it closes only the response it was given,
 * and its {@code include} unwraps the chain to find its own response (it fails without it).
 */
final class ForwardShield {
  private ForwardShield() {}

  /** The response to put below the capture: {@code client} itself, or on Tomcat a view of it that ends the chain. */
  static HttpServletResponse below(HttpServletResponse client) {
    return suspendsBaseAfterForward(client) ? view(client) : client;
  }

  /** Whether the container's own response, at the bottom of {@code response}'s chain, is Tomcat's. */
  static boolean suspendsBaseAfterForward(ServletResponse response) {
    ServletResponse base = response;
    while (base instanceof ServletResponseWrapper wrapper) {
      base = wrapper.getResponse();
    }
    return base != null && base.getClass().getName().startsWith("org.apache.catalina.");
  }

  /**
   * A plain delegate (a dynamic proxy: the interface grows with the Servlet version the container
   * has, 6.0 or 6.1, and every method is passed on unchanged); identity is the view's own.
   */
  private static HttpServletResponse view(HttpServletResponse client) {
    InvocationHandler passOn = new PassOn(client);
    return (HttpServletResponse) Proxy.newProxyInstance(HttpServletResponse.class.getClassLoader(),
        new Class<?>[] {HttpServletResponse.class}, passOn);
  }

  private record PassOn(HttpServletResponse client) implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return switch (method.getName()) {
          case "equals" -> proxy == args[0];
          case "hashCode" -> System.identityHashCode(proxy);
          default -> "ForwardShield[" + client + "]";
        };
      }
      try {
        return method.invoke(client, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }
}
