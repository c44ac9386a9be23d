package org.pagecache.demo;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.security.Principal;
import java.util.Map;

/**
 * The demo's readers: who they are, and a filter ordered before PageCache's that makes a signed-in
 * reader the request's principal (role {@value #ROLE}), from their session, the way Spring Security
 * or a container's form login do. The filter and the pages after it learn the user from the
 * principal only; PageCache keys the readers' pages on the role ({@code signed-in=roles:reader}).
 *
 * <p><b>Demo only:</b> the built-in readers {@code alice}/{@code alice} and {@code bob}/{@code bob}
 * are written here in clear. A real site keeps its users where its security framework does.
 */
public class Readers implements Filter {
  /** The container role a signed-in reader has. */
  static final String ROLE = "reader";
  /** Session attribute: the signed-in reader's name. */
  static final String ATTRIBUTE = Readers.class.getName();
  private static final Map<String, String> PASSWORDS = Map.of("alice", "alice", "bob", "bob");

  /** The reader these credentials sign in, or null. */
  static String check(String username, String password) {
    String expected = username == null ? null : PASSWORDS.get(username);
    return expected != null && expected.equals(password) ? username : null;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest req = (HttpServletRequest) request;
    HttpSession session = req.getSession(false);
    Object reader = session == null ? null : session.getAttribute(ATTRIBUTE);
    chain.doFilter(reader instanceof String name ? new SignedIn(req, name) : request, response);
  }

  /** The request of a signed-in reader: their principal, the reader role. */
  private static final class SignedIn extends HttpServletRequestWrapper {
    private final Principal principal;

    SignedIn(HttpServletRequest req, String name) {
      super(req);
      this.principal = () -> name;
    }

    @Override
    public Principal getUserPrincipal() {
      return principal;
    }

    @Override
    public String getRemoteUser() {
      return principal.getName();
    }

    @Override
    public boolean isUserInRole(String role) {
      return ROLE.equals(role) || super.isUserInRole(role);
    }

    @Override
    public String getAuthType() {
      return FORM_AUTH;
    }
  }
}
