package org.pagecache;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The real visitors the class tests read from: User-Agent strings with the device class their
 * source gives them, and Accept-Language headers (test resources org/pagecache/vary/, their
 * sources and licences in user-agents.NOTICE).
 */
final class RealVisitors {
  private RealVisitors() {}

  /** A real User-Agent string and the device class its data set gives it. */
  record Agent(String source, String deviceClass, String userAgent) {}

  static List<Agent> agents() {
    List<Agent> agents = new ArrayList<>();
    lines("user-agents.tsv", line -> {
      String[] f = line.split("\t", 3);
      agents.add(new Agent(f[0], f[1], f[2]));
    });
    return agents;
  }

  static List<String> acceptLanguages() {
    List<String> headers = new ArrayList<>();
    lines("accept-languages.txt", headers::add);
    return headers;
  }

  private static void lines(String name, Consumer<String> each) {
    try (InputStream in = RealVisitors.class.getResourceAsStream("/org/pagecache/vary/" + name)) {
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.isEmpty() && !line.startsWith("#")) {
          each.accept(line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
