package org.pagecache.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports bad PageCache settings the way Spring Boot reports its own (APPLICATION FAILED TO START,
 * Description, Action), so the line that names the setting is not buried in nested
 * {@code BeanCreationException}s. Registered in {@code META-INF/spring.factories}.
 */
final class PageCacheSettingsFailureAnalyzer extends AbstractFailureAnalyzer<PageCacheSettingsException> {
  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, PageCacheSettingsException cause) {
    String message = cause.getMessage(); // the filter's own starts "PageCache configuration is invalid:"
    return new FailureAnalysis(message.startsWith("PageCache") ? message : "PageCache could not start: " + message,
        "Correct the PageCache setting named above: pagecache.* in application.properties or .yml, or the"
            + " PAGECACHE_<NAME> environment variable (every setting is in PageCache's docs/configuration.md)."
            + " To start the application without PageCache, set pagecache.enabled=false.",
        cause);
  }
}
