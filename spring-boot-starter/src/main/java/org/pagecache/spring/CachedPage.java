package org.pagecache.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Caches the pages of a Spring MVC controller method (or of every method of a controller class),
 * as the handler it names, with its policy:
 * <pre>
 *   &#64;GetMapping("/article/{id}")
 *   &#64;CachedPage(handler = "article", ttl = "5m", grace = "30m")
 *   String article(&#64;PathVariable long id, Model model) { ... }
 * </pre>
 * (import {@code org.pagecache.spring.CachedPage}).
 * The handler name is what a refresh targets ({@code pageCache.refreshHandler("article")} or
 * {@code POST /actuator/pagecache {"handler":"article"}}): only that handler's pages are rebuilt.
 * Without {@code handler} the name is {@code ControllerClass.method}.
 *
 * <p>Methods without the annotation are not cached unless {@code pagecache.unannotated=cache}. A
 * {@code pagecache.policies} entry for the same handler is applied on top of the annotation, so
 * operations can change a TTL without a release. Two methods may share a handler only with the
 * same policy; start-up fails otherwise, naming both.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface CachedPage {
  /** Handler name: 1 to 64 characters of A-Z a-z 0-9 _ . - ; default {@code ControllerClass.method}. */
  String handler() default "";

  /** How long a page is fresh, e.g. {@code 30s}, {@code 5m}; default {@code pagecache.ttl}. */
  String ttl() default "";

  /** How long after that a stale page may be served while one request rebuilds it; default {@code pagecache.grace}. */
  String grace() default "";

  /**
   * Tags of every page of this method, with its URI template variables: {@code "owner:{ownerId}"}
   * on {@code @GetMapping("/owners/{ownerId}")} tags {@code /owners/7} with {@code owner:7}; a write
   * with {@link RefreshesPages#tags()} {@code "owner:{ownerId}"} (or {@code invalidateTag}) makes
   * them stale. Start-up fails for a variable the mapping lacks.
   */
  String[] tags() default {};

  /** Request headers that make different pages, e.g. {@code Accept-Language}. */
  String[] vary() default {};

  /**
   * Any other policy keys in the policy spec syntax, e.g. {@code "statuses=200|404, early-refresh=on"}
   * (see the policy table in docs/configuration.md).
   */
  String spec() default "";
}
