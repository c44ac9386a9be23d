package org.pagecache.spring;

/**
 * A PageCache setting the application cannot start with (a bad value, a misspelt
 * {@code pagecache.*} name, conflicting {@link CachedPage} policies). Its message names the
 * setting, the value and what is accepted; {@link PageCacheSettingsFailureAnalyzer} shows it in
 * Spring Boot's APPLICATION FAILED TO START report instead of a chain of bean creation errors.
 */
final class PageCacheSettingsException extends IllegalArgumentException {
  PageCacheSettingsException(IllegalArgumentException cause) {
    super(cause.getMessage(), cause);
  }

  /** Runs a start-up step, turning its {@link IllegalArgumentException} into this exception. */
  static <T> T check(java.util.function.Supplier<T> step) {
    try {
      return step.get();
    } catch (PageCacheSettingsException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new PageCacheSettingsException(e);
    }
  }
}
