package org.pagecache.soak;

import jakarta.servlet.DispatcherType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.pagecache.PageCache;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.testing.JettyServer;

/**
 * One PageCache frontend: embedded Jetty, the filter, a {@link GenerationPage} handler named
 * {@code page} on {@code /p/*}, an editor's actions on {@code /editor/*} ({@link EditorActions}). Run in this JVM ({@link #start}) or as a child JVM ({@link #main},
 * which prints {@code PORT n} once it serves), so a test can kill it with -9.
 */
public final class Frontend implements AutoCloseable {
  public final JettyServer jetty;
  public final PageCache cache;
  public final GenerationPage page;

  private Frontend(JettyServer jetty, PageCache cache, GenerationPage page) {
    this.jetty = jetty;
    this.cache = cache;
    this.page = page;
  }

  /** Starts a frontend with these settings; {@code dir} holds the generation file. */
  public static Frontend start(Map<String, String> settings, Path dir) {
    PageCacheConfig.Builder b = PageCacheConfig.builder().ignoreEnvironment();
    settings.forEach(b::set);
    PageCacheFilter filter = new PageCacheFilter(b.build());
    GenerationPage page = new GenerationPage(dir);
    JettyServer jetty = JettyServer.start(ctx -> {
      ctx.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
      JettyServer.servlet(ctx, "page", page, "/p/*");
      JettyServer.servlet(ctx, "editor", new EditorActions(), "/editor/*");
    });
    return new Frontend(jetty, PageCache.from(jetty.context().getServletContext()), page);
  }

  public int port() {
    return jetty.port();
  }

  @Override
  public void close() {
    jetty.close();
  }

  /** The command line of a child JVM running a frontend with these settings. */
  public static List<String> command(Map<String, String> settings, Path dir) {
    return command(settings, dir, List.of());
  }

  /** The same, with these options for the child JVM (system properties, say). */
  public static List<String> command(Map<String, String> settings, Path dir, List<String> jvmOptions) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m", "-XX:TieredStopAtLevel=1"));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Frontend.class.getName(), dir.toString()));
    settings.forEach((k, v) -> cmd.add(k + "=" + v));
    return cmd;
  }

  /**
   * The port a child frontend started with {@link #command} serves on, once it printed it; its output
   * is drained from then on, so the child never blocks on a full pipe.
   */
  public static int awaitPort(Process child) throws IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    for (int i = 0; i < 500; i++) {
      String line = out.readLine();
      if (line == null) {
        break;
      }
      if (line.startsWith("PORT ")) {
        CompletableFuture.runAsync(() -> out.lines().forEach(l -> { }));
        return Integer.parseInt(line.substring(5).trim());
      }
    }
    throw new IllegalStateException("the child frontend did not start");
  }

  /** {@code Frontend DIR name=value...}: serves until killed. */
  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      settings.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    Frontend f = start(settings, Path.of(args[0]));
    System.out.println("PORT " + f.port());
    System.out.flush();
    Thread.currentThread().join();
  }
}
