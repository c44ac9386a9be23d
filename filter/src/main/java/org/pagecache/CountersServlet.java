package org.pagecache;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagecache.counters.Counters;
import org.pagecache.internal.counters.CounterNames;
import org.pagecache.internal.json.Json;

/**
 * Current counts as JSON, for pages that fetch them with JavaScript instead of placeholders (a
 * page cached in a browser or a CDN still shows live numbers):
 * <pre>
 *   GET /counters?views=article:42&amp;views=article:7&amp;online
 *   → {"views":{"article:42":1234,"article:7":5},"online":87}
 * </pre>
 * Only the parts asked for are answered; a count that is unknown because memcached is away is
 * {@code null}, and so is {@code online} when online counting is off ({@code online=off}). Reading never counts a view. Answers are {@code Cache-Control: no-store}: a cached
 * count would be a wrong count. At most {@value #MAX_KEYS} distinct object keys per request, each
 * matching {@link CounterNames}; otherwise 400 with {@code {"error":"..."}}. Only GET (and HEAD)
 * are served.
 *
 * <p><b>What a request costs.</b> The endpoint needs no login, so its cost is bounded per
 * request: one memcached multi-get for all keys, plus, for each counter missing from memcached,
 * one {@link org.pagecache.counters.CountSource} load and one {@code add}. A read creates the
 * missing counter (read-through, with the counters' {@code ttl}), like a view would: otherwise
 * every read of an object nobody viewed lately (a listing showing twenty counts) would be a
 * database query, on every request. The price is that keys nobody will view can be created by
 * anyone, at most {@value #MAX_KEYS} per request; they are small, expire after {@code ttl} and are
 * the first evicted. A {@code CountSource} that answers 0 for keys that cannot name an object,
 * without a query, makes such requests cost no database read; rate-limit the path if needed.
 *
 * <p>Map it in web.xml or with {@code ServletContext.addServlet}; it uses the {@link Counters}
 * that the page-cache filter publishes as the context attribute {@code Counters.class.getName()},
 * and answers 503 while there is none.
 */
public class CountersServlet extends HttpServlet {
  /** Enough for a listing page; bounds the database loads one request can cause. */
  public static final int MAX_KEYS = 20;
  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp)
      throws ServletException, IOException {
    String method = req.getMethod();
    if (method.equals("GET") || method.equals("HEAD")) {
      super.service(req, resp);
      return;
    }
    resp.setHeader("Allow", "GET, HEAD");
    send(resp, HttpServletResponse.SC_METHOD_NOT_ALLOWED,
        error(method + " is not allowed here; counters are read with GET"));
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    Object attribute = getServletContext().getAttribute(Counters.class.getName());
    if (!(attribute instanceof Counters counters)) {
      send(resp, HttpServletResponse.SC_SERVICE_UNAVAILABLE, error("the PageCache filter is not "
          + "configured: no Counters in the ServletContext attribute " + Counters.class.getName()));
      return;
    }
    String[] requested = req.getParameterValues("views");
    Set<String> keys = new LinkedHashSet<>();
    if (requested != null) {
      keys.addAll(List.of(requested));
    }
    // The limit first: nothing of an oversized request is looked at, let alone loaded.
    if (keys.size() > MAX_KEYS) {
      send(resp, HttpServletResponse.SC_BAD_REQUEST,
          error("views: " + keys.size() + " object keys asked, at most " + MAX_KEYS + " per request"));
      return;
    }
    for (String key : keys) {
      if (!CounterNames.isValid(key)) {
        send(resp, HttpServletResponse.SC_BAD_REQUEST, error("views: '" + shorten(key)
            + "' is not an object key; use 1 to 200 of A-Z a-z 0-9 : _ . / -"));
        return;
      }
    }
    StringBuilder json = new StringBuilder("{");
    if (!keys.isEmpty()) {
      json.append("\"views\":{");
      String comma = "";
      for (Map.Entry<String, Long> e : counters.views(keys).entrySet()) {
        json.append(comma).append(quote(e.getKey())).append(':').append(count(e.getValue()));
        comma = ",";
      }
      json.append('}');
    }
    if (req.getParameterMap().containsKey("online")) {
      json.append(keys.isEmpty() ? "" : ",").append("\"online\":").append(count(counters.online()));
    }
    send(resp, HttpServletResponse.SC_OK, json.append('}').toString());
  }

  private static String count(Long value) {
    return value == null || value < 0 ? "null" : value.toString();
  }

  private static String error(String message) {
    return "{\"error\":" + quote(message) + "}";
  }

  private static void send(HttpServletResponse resp, int status, String json) throws IOException {
    resp.setStatus(status);
    resp.setHeader("Cache-Control", "no-store");
    resp.setContentType("application/json");
    resp.setCharacterEncoding("UTF-8");
    resp.getWriter().write(json);
  }

  private static String shorten(String key) {
    return key.length() <= 60 ? key : key.substring(0, 60) + "...";
  }

  /** A JSON string literal, escaped so an echoed key stays inert even inside HTML or a script. */
  static String quote(String s) {
    return Json.string(s);
  }

}
