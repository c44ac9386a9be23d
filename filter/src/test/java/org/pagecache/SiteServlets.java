package org.pagecache;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/** The handlers of the test site: each counts its calls, so tests can assert "the handler ran once". */
final class SiteServlets {
  private SiteServlets() {}

  /** A servlet whose GET is a lambda, with a call counter and an optional gate to hold builds. */
  static final class Handler extends HttpServlet {
    final AtomicInteger calls = new AtomicInteger();
    final AtomicReference<CountDownLatch> gate = new AtomicReference<>();
    final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    final AtomicInteger status = new AtomicInteger(200);
    /** What other methods than GET and HEAD do (a POST, PUT, DELETE); unset: 405 as HttpServlet answers. */
    final AtomicReference<Body> writes = new AtomicReference<>();
    final AtomicInteger writeCalls = new AtomicInteger();
    private final Body body;

    interface Body {
      void write(HttpServletRequest req, HttpServletResponse res, int call) throws IOException, ServletException;
    }

    Handler(Body body) {
      this.body = body;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException, ServletException {
      Body write = writes.get();
      if (write != null && !"GET".equals(req.getMethod()) && !"HEAD".equals(req.getMethod())) {
        write.write(req, res, writeCalls.incrementAndGet());
        return;
      }
      super.service(req, res);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException, ServletException {
      int call = calls.incrementAndGet();
      CountDownLatch g = gate.get();
      if (g != null) {
        try {
          g.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      RuntimeException fail = failure.get();
      if (fail != null) {
        throw fail;
      }
      if (status.get() != 200) {
        res.setStatus(status.get());
      }
      body.write(req, res, call);
    }
  }

  static String filler(int n) {
    return "lorem ipsum dolor sit amet ".repeat(n);
  }

  /** An HTML page naming its path, query and call number. */
  static Handler page() {
    return new Handler((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      PrintWriter w = res.getWriter();
      w.print("<html><body><h1>page " + req.getRequestURI() + "?" + req.getQueryString() + "</h1><p>call " + call
          + "</p><p>" + filler(20) + "</p></body></html>");
    });
  }

  static Handler of(Handler.Body body) {
    return new Handler(body);
  }

  static Handler cookie() {
    return new Handler((req, res, call) -> {
      res.addCookie(new Cookie("sid", "secret-" + call));
      res.setContentType("text/plain");
      res.getWriter().print("private data of user " + call);
    });
  }

  /** A login form: creates a session and writes its CSRF token into the page, as JSPs do by default. */
  static Handler session() {
    return new Handler((req, res, call) -> {
      String csrf = "csrf-" + req.getSession(true).getId();
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<form><input type=hidden name=csrf value=" + csrf + "></form> call " + call);
    });
  }

  static Handler header(String name, String value) {
    return new Handler((req, res, call) -> {
      res.setHeader(name, value);
      res.setContentType("text/plain");
      res.getWriter().print("call " + call);
    });
  }

  static Handler bytes(int size) {
    return new Handler((req, res, call) -> {
      res.setContentType("application/octet-stream");
      OutputStream out = res.getOutputStream();
      byte[] chunk = new byte[8192];
      for (int i = 0; i < chunk.length; i++) {
        chunk[i] = (byte) (i * 31 + call);
      }
      int left = size;
      while (left > 0) {
        int n = Math.min(left, chunk.length);
        out.write(chunk, 0, n);
        left -= n;
        res.flushBuffer();
      }
    });
  }

  static Handler async() {
    return new Handler((req, res, call) -> {
      AsyncContext ctx = req.startAsync();
      ctx.start(() -> {
        try {
          ctx.getResponse().setContentType("text/plain");
          ctx.getResponse().getWriter().print("async call " + call);
        } catch (IOException e) {
          throw new IllegalStateException(e);
        } finally {
          ctx.complete();
        }
      });
    });
  }

  /** Registry of named handlers so a test can find the one it hit. */
  static final class Registry {
    final Map<String, Handler> byName = new ConcurrentHashMap<>();

    Handler add(String name, Handler h) {
      byName.put(name, h);
      return h;
    }

    int calls(String name) {
      return byName.get(name).calls.get();
    }

    void forEach(Consumer<Map.Entry<String, Handler>> action) {
      byName.entrySet().forEach(action);
    }
  }
}
