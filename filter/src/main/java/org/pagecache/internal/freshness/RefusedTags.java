package org.pagecache.internal.freshness;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pages not stored because their tags could not all be recorded (more than the limit, one too
 * long, one with a character a tag may not hold): a purge of any tag the page named must reach it,
 * so such a page is never stored. Said once per handler and reason in the log, with the count or
 * length only: tags are the application's data (an author's name, a customer's id), never printed.
 */
public final class RefusedTags {
  private static final Logger log = LoggerFactory.getLogger(RefusedTags.class);
  private static final int MAX_REMEMBERED = 10_000;

  private final Set<String> said = ConcurrentHashMap.newKeySet();

  /**
   * @param reason the refusal as Cache-Status and the stats show it ({@code too-many-tags}, {@code tag-too-long}, {@code invalid-tag})
   * @param detail what was wrong, without any tag: e.g. "130 tags, more than 64"
   */
  public void refused(String handler, String reason, String detail) {
    if (said.size() < MAX_REMEMBERED && said.add(handler + '\n' + reason)) {
      log.warn("pagecache: handler '{}' built a page whose tags cannot all be recorded ({}: {}); such pages are"
          + " not cached, so that a purge of any of their tags cannot miss them (said once per handler and reason)",
          handler, reason, detail);
    }
  }
}
