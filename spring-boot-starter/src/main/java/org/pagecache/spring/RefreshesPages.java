package org.pagecache.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a write handler (a POST, PUT, PATCH or DELETE controller method): the pages it changes, made
 * stale once it has answered 2xx or 3xx (a validation error that shows the form again with 4xx,
 * or an exception, refreshes nothing):
 * <pre>
 *   &#64;PostMapping("/owners/{ownerId}/pets/new")
 *   &#64;RefreshesPages(tags = "owner:{ownerId}", handlers = "ownerList")
 *   String addPet(&#64;PathVariable int ownerId, ...) { ... }
 * </pre>
 * {@code tags} are invalidated across all handlers (with the URI template variables of this
 * request, as {@link CachedPage#tags()} tags the pages); {@code handlers} are refreshed whole, for
 * list pages whose URL says nothing about the item (a search result). The write's own URL and its
 * redirect target are refreshed by the filter itself after any successful unsafe request.
 * Refreshes happen before the response goes out, so the redirected browser sees the new page.
 * Start-up fails, naming the method, for a handler name no controller method or policy has, or
 * a variable its mapping lacks.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RefreshesPages {
  /** Tags to invalidate, with URI template variables of this method's mapping: {@code owner:{ownerId}}. */
  String[] tags() default {};

  /** Handlers whose every page becomes stale: {@code ownerList}, {@code OwnerController.processFindForm}. */
  String[] handlers() default {};
}
