package org.pagecache.demo;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.time.Clock;
import org.pagecache.PageCache;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the demo's CMS when the application starts: an in-memory database seeded with
 * {@link SeedArticles}, behind the slow {@link Cms} the pages call, and hands the page cache the
 * articles' durable view counts ({@link ArticleViews}) as its CountSource and CountSink.
 * Registered in web.xml; listeners start before filters, so the filter finds them.
 */
public class DemoSite implements ServletContextListener {
  private static final Logger log = LoggerFactory.getLogger(DemoSite.class);

  private ArticleDatabase db;

  @Override
  public void contextInitialized(ServletContextEvent event) {
    ServletContext context = event.getServletContext();
    DemoSettings settings = DemoSettings.from(context);
    Clock clock = Clock.systemUTC();
    db = ArticleDatabase.inMemory();
    db.insert(SeedArticles.all(clock.instant()));
    Cms cms = new Cms(db, settings, clock);
    context.setAttribute(Cms.CONTEXT_ATTRIBUTE, cms);
    ArticleViews views = new ArticleViews(db);
    context.setAttribute(CountSource.class.getName(), views);
    context.setAttribute(CountSink.class.getName(), views);
    // The header's personal part, filled in by the cache for each visitor on every serve.
    PageCache.fragment(context, Layout.GREETING, Layout::greeting);
    log.info("demo: {} articles in {} sections; every CMS call takes {} ms", SeedArticles.COUNT,
        Section.values().length, settings.delayMillis());
  }

  @Override
  public void contextDestroyed(ServletContextEvent event) {
    event.getServletContext().removeAttribute(Cms.CONTEXT_ATTRIBUTE);
    if (db != null) {
      db.close();
    }
  }
}
