package org.pagecache.internal.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Empties one memcached server with {@code flush_all} over its own short-lived connection (text
 * protocol, which memcached accepts on every port), so a node returning from an outage can be
 * emptied before the client's pooled connections use it again.
 */
final class NodeFlush {
  private NodeFlush() {}

  /** True when the server answered OK within {@code timeoutMillis} (to connect, and to answer). */
  static boolean flushAll(InetSocketAddress address, int timeoutMillis) {
    try (Socket socket = new Socket()) {
      socket.connect(address, timeoutMillis);
      socket.setSoTimeout(timeoutMillis);
      socket.getOutputStream().write("flush_all\r\n".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      byte[] answer = new byte[4];
      int read = 0;
      while (read < answer.length) {
        int n = in.read(answer, read, answer.length - read);
        if (n < 0) {
          return false;
        }
        read += n;
      }
      return new String(answer, StandardCharsets.US_ASCII).equals("OK\r\n");
    } catch (IOException e) {
      return false;
    }
  }
}
