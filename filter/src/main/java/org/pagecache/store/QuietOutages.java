package org.pagecache.store;

import com.google.code.yanf4j.core.Handler;
import com.google.code.yanf4j.core.Session;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits in front of xmemcached's own connection handler and keeps an expected outage out of the
 * log: a connection that a dying server resets ({@code Connection reset}, {@code Broken pipe}:
 * an {@link IOException}) is no error of the client's, but xmemcached logs it at ERROR with a full
 * stack trace ("XMemcached network layout exception"), once per connection and per request in
 * flight. The outage is reported by whoever watches the server: the node's breaker (one WARN when
 * it goes, one INFO when it is back) or {@link ConnectionLog}. Such an exception goes to DEBUG, one
 * line without a stack trace; anything else (a bug, a decoding error) is passed on to xmemcached
 * and logged as before. Installed on the client's connector before it connects, so every session
 * it makes uses it.
 */
final class QuietOutages implements Handler {
  private static final Logger LOG = LoggerFactory.getLogger(MemcachedStore.class);

  private final Handler inner;

  QuietOutages(Handler inner) {
    this.inner = inner;
  }

  @Override
  public void onExceptionCaught(Session session, Throwable error) {
    if (error instanceof IOException) {
      LOG.debug("memcached {}: connection failed ({})", session.getRemoteSocketAddress(), error.toString());
      return;
    }
    inner.onExceptionCaught(session, error);
  }

  @Override
  public void onSessionCreated(Session session) {
    inner.onSessionCreated(session);
  }

  @Override
  public void onSessionStarted(Session session) {
    inner.onSessionStarted(session);
  }

  @Override
  public void onSessionClosed(Session session) {
    inner.onSessionClosed(session);
  }

  @Override
  public void onMessageReceived(Session session, Object message) {
    inner.onMessageReceived(session, message);
  }

  @Override
  public void onMessageSent(Session session, Object message) {
    inner.onMessageSent(session, message);
  }

  @Override
  public void onSessionExpired(Session session) {
    inner.onSessionExpired(session);
  }

  @Override
  public void onSessionIdle(Session session) {
    inner.onSessionIdle(session);
  }

  @Override
  public void onSessionConnected(Session session) {
    inner.onSessionConnected(session);
  }
}
