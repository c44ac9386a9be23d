package org.pagecache;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.pagecache.internal.key.CookieNames;

/**
 * How a handler's pages depend on request cookies (policy key {@code cookies=}):
 * <ul>
 *   <li>{@code bypass} (the default): a request carrying any cookie that is not ignored is not
 *       served from, nor stored in, the cache. Like Varnish's built-in logic, it cannot leak a page
 *       personalised by a cookie, whatever the handler does.
 *   <li>{@code vary:lang|theme}: the page is keyed on the values of these cookies (one entry per
 *       language); any other cookie that is not ignored still bypasses.
 *   <li>{@code ignore}: the policy states that no page of this handler depends on a cookie.
 * </ul>
 * The session cookie keeps its own rule ({@code sessions=}).
 *
 * @param mode which of the three rules applies
 * @param vary the names of the cookies the page is keyed on, for {@link Mode#VARY}; empty otherwise
 */
public record CookieRule(Mode mode, List<String> vary) {
  /** The three modes. */
  public enum Mode {
    /** A request with a cookie that is not ignored bypasses the cache ({@code bypass}). */
    BYPASS,
    /** Pages are keyed on the named cookies; any other cookie that is not ignored bypasses ({@code vary:NAME|NAME}). */
    VARY,
    /** No page depends on a cookie, so cookies do not bypass the cache ({@code ignore}). */
    IGNORE
  }

  /** The default rule, {@code bypass}. */
  public static final CookieRule BYPASS = new CookieRule(Mode.BYPASS, List.of());

  /**
   * Copies {@code vary}, so a rule never changes once made. Cookie names are not checked here:
   * {@link #parse} checks them.
   */
  public CookieRule {
    vary = List.copyOf(vary);
  }

  /**
   * Parses {@code bypass}, {@code ignore} or {@code vary:NAME|NAME}; {@code param} names the setting in errors.
   *
   * @throws IllegalArgumentException when the value is none of these or a name is not a valid
   *     cookie name; the message starts with {@code param}
   */
  public static CookieRule parse(String param, String value) {
    String v = value.trim();
    switch (v.toLowerCase(Locale.ROOT)) {
      case "bypass" -> {
        return BYPASS;
      }
      case "ignore" -> {
        return new CookieRule(Mode.IGNORE, List.of());
      }
      default -> { }
    }
    if (v.toLowerCase(Locale.ROOT).startsWith("vary:")) {
      List<String> names = new ArrayList<>();
      for (String name : v.substring(5).split("[|\\s]+")) {
        if (name.isEmpty()) {
          continue;
        }
        if (!CookieNames.valid(name)) {
          throw new IllegalArgumentException(param + ": '" + name + "' is not a cookie name");
        }
        names.add(name);
      }
      if (!names.isEmpty()) {
        return new CookieRule(Mode.VARY, names);
      }
    }
    throw new IllegalArgumentException(param + ": '" + value
        + "' is not bypass, ignore or vary:NAME|NAME (e.g. vary:lang|theme)");
  }

  /** The rule in its own spec syntax. */
  public String spec() {
    return switch (mode) {
      case BYPASS -> "bypass";
      case IGNORE -> "ignore";
      case VARY -> "vary:" + String.join("|", vary);
    };
  }
}
