package org.pagecache.internal.capture;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import java.util.Collections;
import java.util.Enumeration;
import java.util.function.Supplier;

/**
 * The session a handler asked for ({@code getSession()}) while a page was built for sharing and the
 * visitor had none: created only when the handler uses it (issue 39).
 *
 * <p>Every JSP asks for a session unless its page directive says {@code session="false"}: Jasper
 * and Jetty's JSP engine call {@code request.getSession()} before the page runs, whether or not the
 * page ever touches it. A session created there is a {@code Set-Cookie} on the answer, and a page
 * that sets a cookie is never shared, so on a classic Spring MVC + JSP or Struts application no
 * anonymous page was ever cached. Asking for a session is not using it: until the handler writes an
 * attribute, reads the id, the times or {@code isNew()}, or invalidates it, there is nothing in it
 * that could reach the page, so nothing is created. Reading an attribute finds none (there is no
 * session to hold one), as PageCache's {@link WatchedSession} records for any absent attribute.
 * The first real use creates the container's session and goes on through {@link WatchedSession},
 * which records it: the build is then the visitor's own, exactly as before.
 *
 * <p>What this changes for the application: a visitor served a shared page gets no session from
 * that request, so {@code HttpSessionListener.sessionCreated} does not fire for readers who never
 * use one (docs/safety.md, "Sessions").
 */
final class DeferredSession implements HttpSession {
  private final Supplier<HttpSession> existing;
  private final Supplier<HttpSession> create;
  private final SessionReads reads;
  private final ServletContext context;
  private HttpSession created;

  /**
   * @param existing the container's session if one exists by now (created past this view), watched
   * @param create creates the container's session, watched: called at the first real use
   */
  DeferredSession(Supplier<HttpSession> existing, Supplier<HttpSession> create, SessionReads reads,
      ServletContext context) {
    this.existing = existing;
    this.create = create;
    this.reads = reads;
    this.context = context;
  }

  /** The container's session once a use (or anyone else) created it, else null. */
  synchronized HttpSession created() {
    if (created == null) {
      created = existing.get();
    }
    return created;
  }

  private synchronized HttpSession real() {
    if (created() == null) {
      created = create.get();
    }
    return created;
  }

  /** No session, no value: an absent attribute, which does not make the page the visitor's. */
  @Override
  public Object getAttribute(String name) {
    HttpSession session = created();
    if (session != null) {
      return session.getAttribute(name);
    }
    reads.attribute(name, false);
    return null;
  }

  /** None yet: there is no session to hold one. */
  @Override
  public Enumeration<String> getAttributeNames() {
    HttpSession session = created();
    return session != null ? session.getAttributeNames() : Collections.emptyEnumeration();
  }

  @Override
  public void setAttribute(String name, Object value) {
    if (value == null) {
      removeAttribute(name); // the spec's meaning of a null value
      return;
    }
    real().setAttribute(name, value);
  }

  /** Removing from a session nobody created removes nothing, and creates nothing. */
  @Override
  public void removeAttribute(String name) {
    HttpSession session = created();
    if (session != null) {
      session.removeAttribute(name);
    }
  }

  @Override
  public String getId() {
    return real().getId();
  }

  @Override
  public long getCreationTime() {
    return real().getCreationTime();
  }

  @Override
  public long getLastAccessedTime() {
    return real().getLastAccessedTime();
  }

  @Override
  public boolean isNew() {
    return real().isNew();
  }

  @Override
  public void invalidate() {
    real().invalidate();
  }

  @Override
  public ServletContext getServletContext() {
    return context;
  }

  @Override
  public void setMaxInactiveInterval(int interval) {
    real().setMaxInactiveInterval(interval);
  }

  /** The context's timeout, which a session created now would have; asking creates nothing. */
  @Override
  public int getMaxInactiveInterval() {
    HttpSession session = created();
    return session != null ? session.getMaxInactiveInterval() : context.getSessionTimeout() * 60;
  }

  // Servlet 4's deprecated members, which Servlet 6 removed: the javax artifact's build uncomments
  // the lines marked //javax (docs/architecture.md, "One source, two servlet APIs"). Each passes
  // through the members above, so a read still creates no session.
  //javax @Override
  //javax @Deprecated
  //javax public jakarta.servlet.http.HttpSessionContext getSessionContext() {
  //javax   return real().getSessionContext();
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
