package org.pagecache;

import java.util.List;
import org.pagecache.internal.capture.HeaderReads;
import org.pagecache.internal.key.IgnoredParameters;
import org.pagecache.internal.stats.HandlerRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a build that asked for an ignored query parameter (a tracking parameter its key left out)
 * shows: the handler's pages depend on it. From then on the parameter is part of the handler's keys
 * ({@link IgnoredParameters#keep}), and the page just built, keyed without it, is not stored.
 */
final class TrackingParameterReads {
  private static final Logger log = LoggerFactory.getLogger(TrackingParameterReads.class);

  /** The refusal reason Cache-Status and the stats show. */
  static final String REASON = "tracking-parameter-read";

  private TrackingParameterReads() {}

  /** Null when the build read none; else {@link #REASON}, after keying the handler on what it read. */
  static String afterBuild(IgnoredParameters ignored, String handler, HeaderReads reads, HandlerRecorder stats) {
    if (reads.ignoredParameters().isEmpty()) {
      return null;
    }
    List<String> added = ignored.keep(handler, reads.ignoredParameters());
    reads.ignoredParameters().forEach(stats::parameterKeyed);
    for (String name : added) {
      log.warn("pagecache: handler '{}' read the query parameter '{}', which is on the tracking-parameter list:"
          + " its pages are keyed on it from now on (params.keep={} says so from the start)", handler, name, name);
    }
    return REASON;
  }
}
