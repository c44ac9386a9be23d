package org.pagecache.internal.vary;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The classes one visitor belongs to under a handler's {@code vary=}: a value of each declared
 * class (null for a class the handler does not declare), and what follows from them: the part of
 * the page's key ({@link #keyPart}) and the request a build of the page sees ({@link #present}).
 *
 * @param device   {@code mobile}, {@code tablet} or {@code desktop}; null without {@code vary=device}
 * @param language one of the policy's {@code languages=}; null without {@code vary=language}
 * @param format   one of the policy's {@code formats=}; null without {@code vary=format}
 * @param rules    the site's device rules (the agent a device class's pages are built with)
 */
public record VisitorClass(String device, String language, String format, DeviceRules rules) {
  /** The name of the key part: a NUL first, so no header, cookie or parameter part can be named so. */
  public static final String KEY_PART = "\u0000classes";

  /** The page's key part: the class values, never a header's own text, so no visitor can forge a key. */
  public String[] keyPart() {
    return new String[] {KEY_PART, value(device, language, format)};
  }

  static String value(String device, String language, String format) {
    StringBuilder sb = new StringBuilder(32);
    if (device != null) {
      sb.append("device=").append(device);
    }
    if (language != null) {
      sb.append(sb.length() > 0 ? ";" : "").append("language=").append(language);
    }
    if (format != null) {
      sb.append(sb.length() > 0 ? ";" : "").append("format=").append(format);
    }
    return sb.toString();
  }

  /**
   * The request a page for this visitor's classes is built from: the class's representative
   * {@code User-Agent} and {@code Sec-CH-UA-Mobile}, {@code Accept-Language} and locale, {@code Accept}
   * in place of the visitor's own, so the page is the class's whoever asked for it first.
   */
  public HttpServletRequest present(HttpServletRequest req) {
    return new PresentedRequest(req, device == null ? null : rules.agentOf(device),
        device == null ? null : DeviceRules.MOBILE.equals(device) ? "?1" : "?0", language, format);
  }
}
