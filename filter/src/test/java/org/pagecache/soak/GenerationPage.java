package org.pagecache.soak;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The handler of the fault tests that span JVMs: a page showing the editor's refresh generation,
 * read from a file every frontend shares ({@code generation}), so a checker can tell from a page's
 * content which refresh it was built after. While the file {@code hold} exists a build announces
 * itself (file {@code building}) and blocks, so a test can kill its JVM mid-build.
 */
public final class GenerationPage extends HttpServlet {
  private final Path dir;
  public final AtomicInteger builds = new AtomicInteger();

  public GenerationPage(Path dir) {
    this.dir = dir;
  }

  /** The generation a page shows, -1 when none. */
  public static int generationOf(String body) {
    int at = body.indexOf("generation ");
    if (at < 0) {
      return -1;
    }
    int end = body.indexOf('<', at);
    return Integer.parseInt(body.substring(at + "generation ".length(), end));
  }

  /** Writes the generation pages are built after now (atomically: readers never see a torn file). */
  public static void publish(Path dir, int generation) throws IOException {
    Path tmp = Files.createTempFile(dir, "gen", ".tmp");
    Files.writeString(tmp, Integer.toString(generation));
    Files.move(tmp, dir.resolve("generation"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    builds.incrementAndGet();
    int generation = Integer.parseInt(Files.readString(dir.resolve("generation")).trim());
    if (Files.exists(dir.resolve("hold"))) {
      Files.writeString(dir.resolve("building"), req.getRequestURI());
      for (int i = 0; i < 6000 && Files.exists(dir.resolve("hold")); i++) { // at most 60 s
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
    res.setContentType("text/html;charset=UTF-8");
    byte[] body = ("<html><body><h1>" + req.getRequestURI() + "</h1><p>generation " + generation + "</p>"
        + "<p>" + "lorem ipsum dolor sit amet ".repeat(20) + "</p></body></html>").getBytes(StandardCharsets.UTF_8);
    res.getOutputStream().write(body);
  }
}
