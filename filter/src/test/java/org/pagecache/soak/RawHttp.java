package org.pagecache.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A GET over a plain socket with a fixed {@code Host}, so frontends on different ports compute the
 * same page keys (the JDK's client does not let a test set Host). One connection per request.
 */
public final class RawHttp {
  public static final String HOST = "site.test";

  private RawHttp() {}

  /** An answer: its status, its X-Cache label, its body, its Cache-Status (empty when none). */
  public record Answer(int status, String xCache, String body, String cacheStatus) {}

  public static Answer get(int port, String path, int timeoutMillis) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
      s.setSoTimeout(timeoutMillis);
      s.getOutputStream().write(("GET " + path + " HTTP/1.0\r\nHost: " + HOST + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      String text = all.toString(StandardCharsets.UTF_8);
      int headEnd = text.indexOf("\r\n\r\n");
      if (headEnd < 0) {
        throw new IOException("no complete answer from port " + port);
      }
      String[] head = text.substring(0, headEnd).split("\r\n");
      int status = Integer.parseInt(head[0].split(" ")[1]);
      String xCache = "";
      String cacheStatus = "";
      for (String h : head) {
        if (h.toLowerCase(Locale.ROOT).startsWith("x-cache:")) {
          xCache = h.substring("x-cache:".length()).trim();
        } else if (h.toLowerCase(Locale.ROOT).startsWith("cache-status:")) {
          cacheStatus = h.substring("cache-status:".length()).trim();
        }
      }
      return new Answer(status, xCache, text.substring(headEnd + 4), cacheStatus);
    }
  }
}
