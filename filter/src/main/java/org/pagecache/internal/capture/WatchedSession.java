package org.pagecache.internal.capture;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import java.util.Enumeration;

/**
 * The visitor's session as a handler sees it through PageCache's request wrapper while a page is
 * built for the cache: every call is passed on, and what may carry session data into the page is
 * recorded in {@link SessionReads}. Only reads through the wrapper are seen (an object that holds
 * the request from before PageCache's filter reads the container's session directly).
 */
final class WatchedSession implements HttpSession {
  private final HttpSession session;
  private final SessionReads reads;

  WatchedSession(HttpSession session, SessionReads reads) {
    this.session = session;
    this.reads = reads;
  }

  /** The value decides the page only when there is one: an absent cart renders as everyone's page. */
  @Override
  public Object getAttribute(String name) {
    Object value = session.getAttribute(name);
    reads.attribute(name, value != null);
    return value;
  }

  @Override
  public Enumeration<String> getAttributeNames() {
    reads.used("attribute-names");
    return session.getAttributeNames();
  }

  /** A write means the session is this visitor's state in the making (a new CSRF token, a cart). */
  @Override
  public void setAttribute(String name, Object value) {
    reads.used("written:" + name);
    session.setAttribute(name, value);
  }

  @Override
  public void removeAttribute(String name) {
    reads.used("written:" + name);
    session.removeAttribute(name);
  }

  /**
   * Not a use: frameworks read the id for their own bookkeeping on every request (Spring's request
   * handled event); an id shown in the page is found there ({@link SessionValuesInBody}).
   */
  @Override
  public String getId() {
    return session.getId();
  }

  @Override
  public long getCreationTime() {
    reads.used("session-times");
    return session.getCreationTime();
  }

  @Override
  public long getLastAccessedTime() {
    reads.used("session-times");
    return session.getLastAccessedTime();
  }

  @Override
  public boolean isNew() {
    reads.used("session-new");
    return session.isNew();
  }

  @Override
  public void invalidate() {
    reads.used("invalidated");
    session.invalidate();
  }

  @Override
  public ServletContext getServletContext() {
    return session.getServletContext();
  }

  @Override
  public void setMaxInactiveInterval(int interval) {
    session.setMaxInactiveInterval(interval);
  }

  @Override
  public int getMaxInactiveInterval() {
    return session.getMaxInactiveInterval();
  }

  // Servlet 4's deprecated members, which Servlet 6 removed: the javax artifact's build uncomments
  // the lines marked //javax (docs/architecture.md, "One source, two servlet APIs"). Each passes
  // through the members above, so what they read is recorded the same way.
  //javax @Override
  //javax @Deprecated
  //javax public jakarta.servlet.http.HttpSessionContext getSessionContext() {
  //javax   return session.getSessionContext();
  //javax }
  //javax
  //javax @Override
  //javax @Deprecated
  //javax public Object getValue(String name) {
  //javax   return getAttribute(name);
  //javax }
  //javax
  //javax @Override
  //javax @Deprecated
  //javax public String[] getValueNames() {
  //javax   return java.util.Collections.list(getAttributeNames()).toArray(new String[0]);
  //javax }
  //javax
  //javax @Override
  //javax @Deprecated
  //javax public void putValue(String name, Object value) {
  //javax   setAttribute(name, value);
  //javax }
  //javax
  //javax @Override
  //javax @Deprecated
  //javax public void removeValue(String name) {
  //javax   removeAttribute(name);
  //javax }
}
