package org.pagecache.example.spring;

import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.atomic.AtomicInteger;
import org.pagecache.PageCache;
import org.pagecache.spring.CachedPage;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Pages anyone may share: each method is a handler of its own, refreshed on its own. The build
 * counters only make the example's behaviour visible (a cached page shows the build that made it).
 * Signed-in members are served the members' cached page ({@code signed-in=roles:member}), their
 * greeting filled in on every serve by {@link MemberParts} ({@code PageCache.fragment("greeting")}).
 */
@RestController
public class ArticleController {
  private final AtomicInteger articleBuilds = new AtomicInteger();
  private final AtomicInteger homeBuilds = new AtomicInteger();

  /** One article; editors refresh "article" after a change, or invalidate the tag "article:{id}". */
  @GetMapping(value = "/article/{id}", produces = MediaType.TEXT_HTML_VALUE)
  @CachedPage(handler = "article", ttl = "5m", grace = "30m", spec = "signed-in=roles:member")
  public String article(@PathVariable int id, HttpServletRequest request) {
    PageCache.tag(request, "article:" + id); // pages showing article 42 go stale with invalidateTag("article:42")
    return "<!DOCTYPE html><title>Article " + id + "</title><header>" + PageCache.fragment("greeting") + "</header>"
        + "<h1>Article " + id + "</h1>"
        + "<p>build " + articleBuilds.incrementAndGet() + "</p>";
  }

  @GetMapping(value = "/", produces = MediaType.TEXT_HTML_VALUE)
  @CachedPage(handler = "home", ttl = "30s", grace = "10m", spec = "signed-in=roles:member")
  public String home() {
    return "<!DOCTYPE html><title>News</title><header>" + PageCache.fragment("greeting") + "</header><h1>News</h1><p>build " + homeBuilds.incrementAndGet() + "</p>";
  }
}
