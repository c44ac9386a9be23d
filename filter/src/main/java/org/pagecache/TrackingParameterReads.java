package org.pagecache;

import java.util.List;
import java.util.Set;
import org.pagecache.internal.capture.HeaderReads;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.stats.HandlerRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a build that read a query parameter its key left out shows: the handler's pages depend on
 * it. That is an ignored tracking parameter read by name, or under {@code params=read} any parameter
 * the handler's {@link org.pagecache.internal.key.ParameterRecord record} does not hold yet, or a read
 * that sees every parameter at once. From then on the handler's keys hold what it read ({@link
 * org.pagecache.internal.key.IgnoredParameters#keep}, {@link org.pagecache.internal.key.ParameterRecords}),
 * and the page just built, keyed without it, is not stored.
 */
final class TrackingParameterReads {
  private static final Logger log = LoggerFactory.getLogger(TrackingParameterReads.class);

  /** The refusal reason Cache-Status and the stats show for a tracking parameter read by name. */
  static final String REASON = "tracking-parameter-read";
  /** The refusal reason under {@code params=read}: a parameter the record did not hold was read by name. */
  static final String READ = "parameter-read";
  /** The refusal reason under {@code params=read}: the build saw every parameter at once. */
  static final String WHOLE = "all-parameters-read";

  private TrackingParameterReads() {}

  /**
   * Null when the build read nothing its key left out; else the reason the page is not stored, after
   * keying the handler on what it read.
   *
   * @param onReads the page was keyed on the parameters read ({@code params=read})
   */
  static String afterBuild(PageKeys keys, String handler, boolean onReads, HeaderReads reads, HandlerRecorder stats) {
    Set<String> names = reads.parameters();
    String reason = null;
    if (onReads && reads.readWholeQuery()) {
      if (keys.records().readWholeQuery(handler)) {
        log.info("pagecache: handler '{}' read the whole query (getParameterMap, getParameterNames, getQueryString or a"
            + " query string attribute): its pages are keyed on every parameter from now on", handler);
      }
      reason = WHOLE;
    } else if (onReads && !names.isEmpty()) {
      for (String name : keys.records().read(handler, names)) {
        log.info("pagecache: handler '{}' read the query parameter '{}': its pages are keyed on it from now on",
            handler, name);
      }
      reason = READ;
    }
    if (!names.isEmpty()) {
      List<String> added = keys.ignoredParameters().keep(handler, names);
      names.forEach(stats::parameterKeyed);
      for (String name : added) {
        log.warn("pagecache: handler '{}' read the query parameter '{}', which is on the tracking-parameter list:"
            + " its pages are keyed on it from now on (params.keep={} says so from the start)", handler, name, name);
      }
      reason = reason == null ? REASON : reason;
    }
    if (onReads) {
      stats.keyedOn(keys.parameters(handler, true).describe());
    }
    return reason;
  }
}
