package org.pagecache.internal.nodes;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Text-protocol commands (which memcached accepts on every port) over a short-lived connection of
 * their own, beside the client's pooled ones: whether a server answers at all, and emptying one
 * that returns from an outage before the client uses it again.
 */
final class RawCommands {
  private RawCommands() {}

  /** True when the server accepts a connection within {@code timeoutMillis}. */
  static boolean accepts(InetSocketAddress address, int timeoutMillis) {
    try (Socket socket = new Socket()) {
      socket.connect(address, timeoutMillis);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** True when the server answered {@code version} within {@code timeoutMillis}: not down, not hung. */
  static boolean answers(InetSocketAddress address, int timeoutMillis) {
    return exchange(address, timeoutMillis, "version\r\n", "VERSION");
  }

  /** True when the server answered OK to {@code flush_all} within {@code timeoutMillis}. */
  static boolean flushAll(InetSocketAddress address, int timeoutMillis) {
    return exchange(address, timeoutMillis, "flush_all\r\n", "OK\r\n");
  }

  private static boolean exchange(InetSocketAddress address, int timeoutMillis, String command, String expected) {
    try (Socket socket = new Socket()) {
      socket.connect(address, timeoutMillis);
      socket.setSoTimeout(timeoutMillis);
      socket.getOutputStream().write(command.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      byte[] answer = new byte[expected.length()];
      int read = 0;
      while (read < answer.length) {
        int n = in.read(answer, read, answer.length - read);
        if (n < 0) {
          return false;
        }
        read += n;
      }
      return new String(answer, StandardCharsets.US_ASCII).equals(expected);
    } catch (IOException e) {
      return false;
    }
  }
}
