package org.pagecache.internal.counters;

import java.util.regex.Pattern;

/**
 * The names of counted objects (the API's "object keys") that may appear in placeholders and in
 * the counters endpoint's query: {@code [A-Za-z0-9:_./-]{1,200}}, e.g. {@code article:42} or
 * {@code photo/2024/7}. Narrow on
 * purpose: such a key can sit inside an HTML comment and a URL without escaping, and a key that
 * does not match is simply not a key (left as text, or answered with 400).
 */
public final class CounterNames {
  /** The character class and length, for embedding in larger patterns. */
  public static final String SYNTAX = "[A-Za-z0-9:_./-]{1,200}";

  private static final Pattern KEY = Pattern.compile(SYNTAX);

  private CounterNames() {}

  public static boolean isValid(String objectKey) {
    return objectKey != null && KEY.matcher(objectKey).matches();
  }
}
