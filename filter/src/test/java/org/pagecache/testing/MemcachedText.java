package org.pagecache.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tiny memcached text-protocol client for tests: it looks at (or plants data in) a memcached
 * server without going through the code under test, so a test can check what really was stored,
 * e.g. that a counter is decimal ASCII or that no {@code flush_all} ever happened.
 *
 * <p>Each call opens its own connection (2 s connect and read timeouts), so instances need no
 * closing and can be shared. Failures are {@link UncheckedIOException}s.
 *
 * <pre>{@code
 * MemcachedText text = memcached.text(0);
 * assertEquals(0, text.statLong("cmd_flush"));
 * text.setRaw("page", new byte[] {1, 2, 3}, 0, 0); // garbage the codec must survive
 * }</pre>
 */
public final class MemcachedText {
  private static final int TIMEOUT_MILLIS = 2000;

  private final String host;
  private final int port;

  public MemcachedText(String host, int port) {
    this.host = host;
    this.port = port;
  }

  /** The general {@code stats}, name to value. */
  public Map<String, String> stats() {
    return stats("");
  }

  /** {@code stats <group>}, e.g. {@code slabs} or {@code items}; "" for the general stats. */
  public Map<String, String> stats(String group) {
    return exchange(group.isEmpty() ? "stats" : "stats " + group, null, conversation -> {
      Map<String, String> stats = new LinkedHashMap<>();
      for (String line = conversation.line(); !line.equals("END"); line = conversation.line()) {
        String[] parts = line.split(" ", 3);
        if (!parts[0].equals("STAT") || parts.length < 3) {
          throw new IOException("unexpected stats line: " + line);
        }
        stats.put(parts[1], parts[2]);
      }
      return stats;
    });
  }

  /**
   * Every key the server holds ({@code lru_crawler metadump all}, keys decoded), for a test that
   * counts keys by kind rather than {@code curr_items}: the site-wide figures' counters
   * ({@code <ns>:c:}, {@code <ns>:r:}) land every 5 s of real time, whenever a loaded machine lets
   * a test run that long.
   */
  public java.util.List<String> keys() {
    return exchange("lru_crawler metadump all", null, conversation -> {
      // metadump ends its key lines with a bare LF and only END with CRLF: one CRLF line holds them all
      java.util.List<String> keys = new java.util.ArrayList<>();
      for (boolean ended = false; !ended; ) {
        for (String line : conversation.line().split("\n")) {
          if (line.equals("END")) {
            ended = true;
          } else if (line.startsWith("ERROR") || line.startsWith("BUSY") || line.startsWith("CLIENT_ERROR")) {
            throw new IOException("metadump refused: " + line);
          } else if (line.startsWith("key=")) {
            keys.add(java.net.URLDecoder.decode(line.split(" ", 2)[0].substring(4), StandardCharsets.UTF_8));
          }
        }
      }
      return keys;
    });
  }

  /** The keys (see {@link #keys()}) that hold {@code part}, e.g. {@code ":p:"} for pages. */
  public long keysHolding(String part) {
    return keys().stream().filter(k -> k.contains(part)).count();
  }

  /** One general stat as a number, e.g. {@code statLong("curr_items")}. */
  public long statLong(String name) {
    String value = stats().get(name);
    if (value == null) {
      throw new IllegalArgumentException("memcached has no stat '" + name + "'");
    }
    return Long.parseLong(value);
  }

  /** Deletes that found their key, so far ({@code delete_hits}). */
  public long deleteHits() {
    return statLong("delete_hits");
  }

  /**
   * Waits until {@code key} is gone, and checks a delete took it ({@code delete_hits} grew since
   * {@code deleteHitsBefore}), not its expiry. A lock is given back with a delete sent noreply: the
   * filter's call returns before memcached applies it, and this connection may ask first.
   */
  public void assertDeletedSince(String key, long deleteHitsBefore, String what) {
    Eventually.assertWithin(java.time.Duration.ofSeconds(30), what + ": " + key + " gone", () -> get(key) == null);
    if (deleteHits() <= deleteHitsBefore) {
      throw new AssertionError(what + ": " + key + " expired, nothing deleted it");
    }
  }

  /** The value as ISO-8859-1 text (one char per byte), or null when missing. */
  public String get(String key) {
    byte[] value = getBytes(key);
    return value == null ? null : new String(value, StandardCharsets.ISO_8859_1);
  }

  /** The value's bytes, or null when missing. */
  public byte[] getBytes(String key) {
    return exchange("get " + key, null, conversation -> {
      String line = conversation.line();
      if (line.equals("END")) {
        return null;
      }
      String[] header = line.split(" ");
      if (!header[0].equals("VALUE") || header.length < 4) {
        throw new IOException("unexpected reply to get: " + line);
      }
      byte[] value = conversation.bytes(Integer.parseInt(header[3]));
      conversation.expect("END");
      return value;
    });
  }

  /** Stores exactly these bytes and flags, bypassing every client's encoding. */
  public void setRaw(String key, byte[] value, int flags, int ttlSeconds) {
    exchange("set " + key + " " + flags + " " + ttlSeconds + " " + value.length, value, conversation -> {
      conversation.expect("STORED");
      return null;
    });
  }

  /**
   * Seconds the item has left before memcached expires it (meta get's {@code t} flag): -1 for an
   * item without expiry, null when the key is missing.
   */
  public Long secondsToLive(String key) {
    return exchange("mg " + key + " t", null, conversation -> {
      String line = conversation.line();
      if (line.equals("EN")) {
        return null;
      }
      if (!line.startsWith("HD t")) {
        throw new IOException("unexpected reply to mg: " + line);
      }
      return Long.parseLong(line.substring("HD t".length()).trim());
    });
  }

  /** True when the key existed. */
  public boolean delete(String key) {
    return exchange("delete " + key, null, conversation -> {
      String line = conversation.line();
      if (!line.equals("DELETED") && !line.equals("NOT_FOUND")) {
        throw new IOException("unexpected reply to delete: " + line);
      }
      return line.equals("DELETED");
    });
  }

  /** The server's version; throws when nothing answers (the harness uses it as a readiness probe). */
  public String version() {
    return exchange("version", null, conversation -> {
      String line = conversation.line();
      if (!line.startsWith("VERSION ")) {
        throw new IOException("unexpected reply to version: " + line);
      }
      return line.substring("VERSION ".length());
    });
  }

  @Override
  public String toString() {
    return "memcached text client for " + host + ":" + port;
  }

  private <T> T exchange(String command, byte[] data, Reply<T> reply) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
      socket.setSoTimeout(TIMEOUT_MILLIS);
      OutputStream out = socket.getOutputStream();
      ByteArrayOutputStream request = new ByteArrayOutputStream();
      request.write((command + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      if (data != null) {
        request.write(data);
        request.write('\r');
        request.write('\n');
      }
      out.write(request.toByteArray());
      out.flush();
      return reply.read(new Conversation(socket.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException(this + ": '" + command + "' failed: " + e.getMessage(), e);
    }
  }

  @FunctionalInterface
  private interface Reply<T> {
    T read(Conversation conversation) throws IOException;
  }

  /** Reads CRLF-terminated lines and counted data blocks from one connection. */
  private static final class Conversation {
    private final InputStream in;

    Conversation(InputStream in) {
      this.in = new BufferedInputStream(in);
    }

    String line() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      int previous = -1;
      for (int b = in.read(); ; b = in.read()) {
        if (b < 0) {
          throw new EOFException("connection closed mid-reply");
        }
        if (previous == '\r' && b == '\n') {
          byte[] bytes = line.toByteArray();
          return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
        }
        line.write(b);
        previous = b;
      }
    }

    byte[] bytes(int length) throws IOException {
      byte[] data = in.readNBytes(length);
      if (data.length != length || in.read() != '\r' || in.read() != '\n') {
        throw new EOFException("data block shorter than " + length + " bytes");
      }
      return data;
    }

    void expect(String expected) throws IOException {
      String line = line();
      if (!line.equals(expected)) {
        throw new IOException("expected " + expected + " but memcached said " + line);
      }
    }
  }
}
