package org.pagecache.classic;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A personal page at {@code /account/*}: whatever the rest of the path, it shows the signed-in
 * visitor's account (from their {@code user} cookie). The target of web cache deception: a victim
 * lured to {@code /account/x.css} must not have their page stored under an {@code *.css} policy.
 */
public class AccountServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    String user = "guest";
    if (req.getCookies() != null) {
      for (Cookie c : req.getCookies()) {
        if (c.getName().equals("user")) {
          user = c.getValue();
        }
      }
    }
    res.setContentType("text/html;charset=UTF-8");
    res.getWriter().write("<p>Account of " + user.replaceAll("[^A-Za-z0-9-]", "") + ": balance 1 234.56</p>\n");
  }
}
