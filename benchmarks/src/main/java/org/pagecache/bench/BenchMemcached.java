package org.pagecache.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.pagecache.testing.MemcachedExtension;

/**
 * Real memcached processes for the load benchmarks, from the test harness. The harness is a JUnit
 * extension; outside JUnit its two lifecycle callbacks are called directly (they do not use the
 * context they are given). Its shutdown hook still kills the processes if the benchmark dies.
 */
final class BenchMemcached implements AutoCloseable {
  private final MemcachedExtension nodes;

  BenchMemcached(int count) {
    this(count, 64);
  }

  /** {@code count} nodes of {@code memoryMb} each ({@code -m}). */
  BenchMemcached(int count, int memoryMb) {
    nodes = MemcachedExtension.nodes(count).memoryMb(memoryMb);
    nodes.beforeAll(null);
  }

  /** The servers as {@code memcached.servers} takes them. */
  String servers() {
    return nodes.servers();
  }

  MemcachedExtension.Node node(int i) {
    return nodes.node(i);
  }

  Map<String, String> stats(int i) {
    return nodes.text(i).stats();
  }

  long stat(int i, String name) {
    return nodes.text(i).statLong(name);
  }

  /**
   * {@code flush_all} on node {@code i}, over a raw socket: the harness deliberately has no such
   * call (its tests assert nobody flushes), and the refresh benchmark compares against exactly this.
   */
  void flushAll(int i) {
    try (Socket socket = new Socket("127.0.0.1", node(i).port())) {
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      out.write("flush_all\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = in.readNBytes(4);
      if (!new String(reply, StandardCharsets.US_ASCII).equals("OK\r\n")) {
        throw new IllegalStateException("flush_all: memcached said " + new String(reply, StandardCharsets.US_ASCII));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("flush_all on " + node(i), e);
    }
  }

  @Override
  public void close() {
    nodes.afterAll(null);
  }
}
