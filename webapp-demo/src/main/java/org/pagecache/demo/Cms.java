package org.pagecache.demo;

import jakarta.servlet.ServletContext;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The content service the pages call, deliberately slow: every call costs {@code delayMillis}
 * (a stand-in for a remote CMS, a busy database, template rendering...) and is counted under the
 * handler that made it, so the footer and {@code /cms/stats} show what the cache saved.
 *
 * <pre>
 *   Cms cms = Cms.from(getServletContext());
 *   List&lt;Article&gt; latest = cms.latest(getServletName(), 10);   // 300 ms, counted for "home"
 * </pre>
 */
public final class Cms {
  /** The ServletContext attribute under which {@link DemoSite} publishes the instance. */
  public static final String CONTEXT_ATTRIBUTE = Cms.class.getName();

  private final ArticleDatabase db;
  private final long delayMillis;
  private final int pageSize;
  private final Clock clock;
  private final CmsCalls calls = new CmsCalls();

  public Cms(ArticleDatabase db, DemoSettings settings, Clock clock) {
    this.db = db;
    this.delayMillis = settings.delayMillis();
    this.pageSize = settings.pageSize();
    this.clock = clock;
  }

  public static Cms from(ServletContext context) {
    Object cms = context.getAttribute(CONTEXT_ATTRIBUTE);
    if (!(cms instanceof Cms c)) {
      throw new IllegalStateException("no CMS in the ServletContext: is " + DemoSite.class.getName()
          + " registered as a <listener> in web.xml?");
    }
    return c;
  }

  public List<Article> latest(String handler, int limit) {
    call(handler);
    return db.latest(limit);
  }

  /** A page of a section (from 1); a page past the last comes back with no articles. */
  public SectionPage section(String handler, Section section, int page) {
    call(handler);
    return db.section(section, page, pageSize);
  }

  public Optional<Article> article(String handler, long id) {
    call(handler);
    return db.find(id);
  }

  public List<Article> all(String handler) {
    call(handler);
    return db.all();
  }

  /** Saves an editor's change; false if there is no such article. */
  public boolean edit(String handler, long id, String title, String body) {
    call(handler);
    return db.update(id, title, body, clock.instant());
  }

  public CmsCalls calls() {
    return calls;
  }

  public long delayMillis() {
    return delayMillis;
  }

  private void call(String handler) {
    calls.record(handler);
    if (delayMillis > 0) {
      try {
        Thread.sleep(delayMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
