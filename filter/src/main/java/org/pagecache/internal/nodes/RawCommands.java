package org.pagecache.internal.nodes;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Text-protocol commands (which memcached accepts on every port) over a short-lived connection of
 * their own, beside the client's pooled ones: whether a server answers at all, whether it is a
 * proxy, and emptying one that returns from an outage before the client uses it again.
 *
 * <p>Whether a server answers is asked with a data command, a {@code get} of a key nobody writes:
 * memcached proxies (twemproxy, mcrouter) pass data commands on and refuse most others
 * (twemproxy closes the connection on {@code stats} and {@code flush_all}).
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

  /** A key no one writes: its {@code get} is the health probe. */
  static final String PROBE_KEY = "pagecache-health-probe";

  /**
   * True when the server answered a {@code get} within {@code timeoutMillis}: not down, not hung.
   * Any answer counts, an error too: a proxy whose node for the probe key is down still answers.
   */
  static boolean answers(InetSocketAddress address, int timeoutMillis) {
    String line = firstLine(address, timeoutMillis, "get " + PROBE_KEY + "\r\n");
    return line != null;
  }

  /**
   * True when the server answers data commands but refuses {@code stats} (closes the connection,
   * or answers an error): a memcached proxy such as twemproxy. False for memcached, which answers
   * its statistics; null when the server did not answer at all (down or hung: not known yet).
   */
  static Boolean refusesStats(InetSocketAddress address, int timeoutMillis) {
    if (!answers(address, timeoutMillis)) {
      return null;
    }
    String line = firstLine(address, timeoutMillis, "stats\r\n");
    return line == null || !line.startsWith("STAT ");
  }

  /** True when the server answered OK to {@code flush_all} within {@code timeoutMillis}. */
  static boolean flushAll(InetSocketAddress address, int timeoutMillis) {
    return exchange(address, timeoutMillis, "flush_all\r\n", "OK\r\n");
  }

  /** The first line of the answer, without its CRLF; null when the connection failed, closed or timed out first. */
  private static String firstLine(InetSocketAddress address, int timeoutMillis, String command) {
    return ask(address, timeoutMillis, command, in -> {
      StringBuilder line = new StringBuilder();
      for (int b = in.read(); b >= 0 && line.length() < 1024; b = in.read()) {
        if (b == '\n' && line.length() > 0 && line.charAt(line.length() - 1) == '\r') {
          return line.substring(0, line.length() - 1);
        }
        line.append((char) b);
      }
      return null;
    });
  }

  /** True when the answer begins with {@code expected}. */
  private static boolean exchange(InetSocketAddress address, int timeoutMillis, String command, String expected) {
    Boolean answered = ask(address, timeoutMillis, command, in -> {
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
    });
    return Boolean.TRUE.equals(answered);
  }

  /** Reads what the server answered; may throw when the connection fails or times out. */
  private interface Answer<T> {
    T read(InputStream in) throws IOException;
  }

  /**
   * Sends {@code command} on a connection of its own, bounded by {@code timeoutMillis} to connect
   * and per read, and reads the answer; null when the connection failed or timed out.
   */
  private static <T> T ask(InetSocketAddress address, int timeoutMillis, String command, Answer<T> answer) {
    try (Socket socket = new Socket()) {
      socket.connect(address, timeoutMillis);
      socket.setSoTimeout(timeoutMillis);
      socket.getOutputStream().write(command.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      return answer.read(socket.getInputStream());
    } catch (IOException e) {
      return null;
    }
  }
}
