package org.pagecache;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.pagecache.internal.text.PathParameters;
import org.pagecache.internal.vary.HandlerClasses;
import org.pagecache.internal.vary.VisitorClass;

/**
 * The page of an absolute URL, as {@link PageCache#evict} removes it: the handler the URL belongs
 * to (the integration's naming, else the servlet mapping that serves the path, as the container
 * ranks them; a policy's paths where they claim it, as for a request) and the keys its page is
 * stored under.
 */
final class UrlPages {
  /**
   * @param handler the handler the URL belongs to ({@code default} when none matches)
   * @param key     the key of the page of the plain path
   * @param asSent  the key of the page of the path as sent, when it carried path parameters; else null
   * @param classVariants under declared classes of visitors ({@code vary=device...}): the key of each
   *                class's page (of the plain path and as sent); else empty
   */
  record Keys(String handler, String key, String asSent, List<String> classVariants) {}

  private final Engine engine;
  private volatile ServletContext servletContext;
  private volatile Function<String, String> handlerByPath = path -> null;
  private volatile Function<String, String> patternByPath = path -> null;

  UrlPages(Engine engine) {
    this.engine = engine;
  }

  void attach(ServletContext context) {
    this.servletContext = context;
  }

  void handlersByPath(Function<String, String> byPath, Function<String, String> patterns) {
    this.patternByPath = patterns == null ? path -> null : patterns;
    this.handlerByPath = byPath == null ? path -> null : byPath;
  }

  /** @throws IllegalArgumentException when {@code url} is not an absolute URL */
  Keys keys(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("url: '" + url + "' is not a URL; use an absolute URL like https://example.com/article/42");
    }
    if (uri.getScheme() == null || uri.getHost() == null || uri.getRawPath() == null) {
      throw new IllegalArgumentException("url: '" + url + "' is not absolute; use e.g. https://example.com/article/42");
    }
    String scheme = uri.getScheme().toLowerCase();
    int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
    String rawPath = uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    // Path parameters (;jsessionid=...) as the container maps them: the page of the plain path, and the one as sent.
    String mappedPath = PathParameters.strip(rawPath);
    String handler = handlerForPath(mappedPath);
    CachePolicy policy = engine.policies.policy(handler);
    String key = engine.keys.forUrl(scheme, uri.getHost(), port, mappedPath, uri.getRawQuery(), handler,
        policy.vary(), policy.cookies().vary(), policy.keyOnReads());
    String asSent = mappedPath.equals(rawPath) ? null : engine.keys.forUrl(scheme, uri.getHost(), port, rawPath,
        uri.getRawQuery(), handler, policy.vary(), policy.cookies().vary(), policy.keyOnReads());
    List<String> variants = new ArrayList<>();
    if (!policy.classes().isEmpty()) { // one page per class of visitors: each is the URL's page
      HandlerClasses classes = engine.classes.of(handler, policy.classes(), policy.languages(), policy.formats());
      for (String value : classes.keyValues()) {
        String[] part = {VisitorClass.KEY_PART, value};
        variants.add(engine.keys.forUrl(scheme, uri.getHost(), port, mappedPath, uri.getRawQuery(), handler,
            policy.vary(), policy.cookies().vary(), policy.keyOnReads(), part));
        if (!mappedPath.equals(rawPath)) {
          variants.add(engine.keys.forUrl(scheme, uri.getHost(), port, rawPath, uri.getRawQuery(), handler,
              policy.vary(), policy.cookies().vary(), policy.keyOnReads(), part));
        }
      }
    }
    return new Keys(handler, key, asSent, variants);
  }

  private String handlerForPath(String rawPath) {
    ServletContext ctx = servletContext;
    String path = rawPath;
    if (ctx != null && !ctx.getContextPath().isEmpty() && path.startsWith(ctx.getContextPath())) {
      path = path.substring(ctx.getContextPath().length());
    }
    String served = handlerByPath.apply(path);
    int servingRank;
    if (served != null) {
      String pattern = patternByPath.apply(path);
      servingRank = pattern != null ? Policies.mappingRank(pattern) : Policies.EXACT;
    } else {
      servingRank = Policies.DEFAULT;
      served = "default";
      if (ctx != null) {
        for (Map.Entry<String, ? extends ServletRegistration> e : ctx.getServletRegistrations().entrySet()) {
          for (String mapping : e.getValue().getMappings()) {
            // "/" is the default servlet: it serves whatever no other mapping does
            int rank = mapping.equals("/") ? Policies.DEFAULT : Policies.rank(mapping, path);
            if (rank > servingRank || (rank == servingRank && served.equals("default"))) {
              servingRank = rank;
              served = e.getKey();
            }
          }
        }
      }
    }
    String claimed = engine.policies.claim(path, served, servingRank);
    return claimed != null ? claimed : served;
  }
}
