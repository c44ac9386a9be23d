package org.pagecache.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A method of a Spring bean that renders one fragment of cached pages for the visitor of the
 * request: the personal part (a greeting, a cart count, a CSRF field) PageCache fills in on every
 * serve of a shared page (docs/fragments.md). The page shows it where its view writes the
 * placeholder: {@code PageCache.fragment("greeting")} in code, or in a Thymeleaf template
 * {@code <span th:utext="${@pageFragments.marker('greeting')}"></span>}.
 *
 * <pre>{@code
 * @Component
 * class Fragments {
 *   @PageFragment("greeting")
 *   String greeting(Principal user) {
 *     return user == null ? "<a href=/login>Sign in</a>" : "Signed in as " + HtmlUtils.htmlEscape(user.getName());
 *   }
 * }
 * }</pre>
 *
 * The method returns the fragment's HTML (escape what it puts in) and may take, in any order: the
 * {@code HttpServletRequest}, the {@code HttpSession} (null without one), the {@code Principal} (null
 * for an anonymous visitor), or any object a filter put in the request under its class name, such as
 * Spring Security's {@code CsrfToken}. It runs on the request's thread, where Spring Security's
 * context is the visitor's. Start-up fails for a parameter it cannot be given or a name used twice.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface PageFragment {
  /** The fragment's name: 1 to 64 of A-Z a-z 0-9 _ . - */
  String value();

  /**
   * Keep the output in memcached per signed-in user for this long (e.g. {@code 1m}), instead of
   * calling the method on every serve; anonymous visitors' parts are not kept. Default: not kept.
   */
  String ttl() default "";
}
