package org.pagecache.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on loopback that can hold back a server's replies: a slow memcached, as a client sees
 * it when the server is overloaded or the network is congested, without freezing the process
 * (compare {@link MemcachedExtension.Node#pause()}, where nothing answers at all). Requests go
 * through at once; each chunk of reply bytes is delivered {@link #delayReplies delay} after it
 * arrived from the server, in order, so the protocol stream stays intact and late replies arrive
 * late rather than never.
 *
 * <pre>{@code
 * try (DelayingProxy proxy = DelayingProxy.start(memcached.node(0).socketAddress())) {
 *   Store store = new MemcachedStore(MemcachedStore.Settings.defaults(proxy.address()));
 *   proxy.delayReplies(Duration.ofMillis(500));   // every reply now comes 500 ms late
 * }
 * }</pre>
 */
public final class DelayingProxy implements AutoCloseable {
  private final InetSocketAddress target;
  private final ServerSocket listener;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile long delayNanos;
  private volatile boolean closed;

  private DelayingProxy(InetSocketAddress target, ServerSocket listener) {
    this.target = target;
    this.listener = listener;
  }

  /** Listens on a free loopback port and forwards every connection to {@code target}. */
  public static DelayingProxy start(InetSocketAddress target) {
    try {
      DelayingProxy proxy = new DelayingProxy(target, new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
      daemon("delaying-proxy-accept", proxy::accept);
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on loopback", e);
    }
  }

  /** {@code 127.0.0.1:port}, for a server list. */
  public String address() {
    return "127.0.0.1:" + listener.getLocalPort();
  }

  /** From now on, reply bytes reach the client this long after the server sent them (0: at once). */
  public void delayReplies(Duration delay) {
    delayNanos = delay.toNanos();
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly(listener);
    sockets.forEach(DelayingProxy::closeQuietly);
  }

  private void accept() {
    while (!closed) {
      Socket client;
      Socket server;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      try {
        server = new Socket();
        server.connect(target, 2000);
      } catch (IOException e) {
        closeQuietly(client); // the server is down: so is the proxied connection
        continue;
      }
      sockets.add(client);
      sockets.add(server);
      daemon("delaying-proxy-requests", () -> pump(client, server));
      BlockingQueue<Chunk> replies = new LinkedBlockingQueue<>();
      daemon("delaying-proxy-replies-in", () -> hold(server, client, replies));
      daemon("delaying-proxy-replies-out", () -> release(replies, client, server));
    }
  }

  /** A chunk of reply bytes and when it may be delivered; {@code bytes == null} marks the end. */
  private record Chunk(byte[] bytes, long dueNanos) {}

  private static void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side closed: the pair goes down together
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private void hold(Socket server, Socket client, BlockingQueue<Chunk> replies) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = server.getInputStream();
      for (int n; (n = in.read(buffer)) >= 0; ) {
        replies.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + delayNanos));
      }
    } catch (IOException e) {
      // closed
    } finally {
      replies.add(new Chunk(null, System.nanoTime() + delayNanos));
    }
  }

  private static void release(BlockingQueue<Chunk> replies, Socket client, Socket server) {
    try {
      OutputStream out = client.getOutputStream();
      while (true) {
        Chunk chunk = replies.poll(1, TimeUnit.SECONDS);
        if (chunk == null) {
          if (client.isClosed()) {
            return;
          }
          continue;
        }
        for (long wait; (wait = chunk.dueNanos() - System.nanoTime()) > 0; ) {
          LockSupport.parkNanos(wait); // the delay is what this proxy is for
        }
        if (chunk.bytes() == null) {
          return;
        }
        out.write(chunk.bytes());
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(client);
      closeQuietly(server);
    }
  }

  private static void daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
