package org.pagecache.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One keep-alive HTTP/1.1 connection, as a browser or a load generator holds it: requests are sent one
 * after the other on the same socket, each answer read whole (Content-Length or chunked) before the
 * next. A test sees whether a request waited for anything that the connection's previous request
 * left running. The Host header is the test's, so frontends on different ports share page keys.
 */
public final class KeepAliveClient implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final String host;

  /** An answer: its status, its headers (lower-case names, the last value of each) and its body. */
  public record Answer(int status, Map<String, String> headers, String body) {
    public String xCache() {
      return headers.get("x-cache");
    }
  }

  /** @param readTimeoutMillis how long any answer may take: a bound for a test that would otherwise hang */
  public KeepAliveClient(int port, String host, int readTimeoutMillis) throws IOException {
    this.socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    socket.setSoTimeout(readTimeoutMillis);
    this.in = new BufferedInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
    this.host = host;
  }

  /** A GET on this connection, with extra header lines ({@code "Name: value"}). */
  public Answer get(String path, String... headerLines) throws IOException {
    StringBuilder sb = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: ").append(host).append("\r\n");
    for (String line : headerLines) {
      sb.append(line).append("\r\n");
    }
    out.write(sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    String[] status = line().split(" ", 3);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String h = line(); !h.isEmpty(); h = line()) {
      int colon = h.indexOf(':');
      headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0;
          size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
        body.write(in.readNBytes(size));
        line();
      }
      line();
    } else if (headers.containsKey("content-length")) {
      body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
    }
    return new Answer(Integer.parseInt(status[1]), headers, body.toString(StandardCharsets.UTF_8));
  }

  private String line() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new IOException("the connection closed mid-answer");
      }
      if (c != '\r') {
        b.write(c);
      }
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
