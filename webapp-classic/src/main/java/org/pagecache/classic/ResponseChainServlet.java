package org.pagecache.classic;

import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Names the class at the bottom of the response's wrapper chain, as a container's forward or
 * include finds it by unwrapping: the container's own response, or on Tomcat the view PageCache's
 * capture puts there (ForwardShield), which no other container may be given (issue 45: Undertow
 * refuses a forward whose response is neither its own nor a ServletResponseWrapper, UT010024).
 */
public class ResponseChainServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    ServletResponse bottom = res;
    while (bottom instanceof ServletResponseWrapper wrapper) {
      bottom = wrapper.getResponse();
    }
    String name = bottom.getClass().getName();
    res.setContentType("text/plain;charset=UTF-8");
    res.getWriter().write((name.contains("$Proxy") ? "a proxy of " + String.join(",", interfaces(bottom)) : name) + "\n");
  }

  private static String[] interfaces(Object proxy) {
    return java.util.Arrays.stream(proxy.getClass().getInterfaces()).map(Class::getName).toArray(String[]::new);
  }
}
