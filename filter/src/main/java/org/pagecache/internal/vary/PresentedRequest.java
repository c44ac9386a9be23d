package org.pagecache.internal.vary;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;

/**
 * The request a build sees under {@code vary=device}, {@code language} or {@code format}: the
 * headers a declared class is read from hold the class's representative value, not the visitor's.
 * A page is stored for the class and served to all of it, so what the handler reads must be the
 * same for all of it: the first visitor's exact {@code User-Agent} (an iPad's, a Kindle's) or
 * {@code Accept-Language} (its second choice) must not shape what everyone of the class gets.
 * Every other header, and everything else of the request, is the visitor's. Servlet 4.0 members
 * only (the javax artifact is generated from this source).
 */
final class PresentedRequest extends HttpServletRequestWrapper {
  private final String userAgent;
  private final String mobileHint;
  private final String language;
  private final String accept;

  /** Each value null where no declared class covers the header: the visitor's own is seen. */
  PresentedRequest(HttpServletRequest request, String userAgent, String mobileHint, String language, String accept) {
    super(request);
    this.userAgent = userAgent;
    this.mobileHint = mobileHint;
    this.language = language;
    this.accept = accept;
  }

  /** The representative value of a header a declared class covers; null for any other header. */
  private String presented(String name) {
    if (name == null) {
      return null;
    }
    if (userAgent != null) {
      if (name.equalsIgnoreCase("User-Agent")) {
        return userAgent;
      }
      if (name.equalsIgnoreCase("Sec-CH-UA-Mobile")) {
        return mobileHint;
      }
    }
    if (language != null && name.equalsIgnoreCase("Accept-Language")) {
      return language;
    }
    if (accept != null && name.equalsIgnoreCase("Accept")) {
      return accept;
    }
    return null;
  }

  @Override
  public String getHeader(String name) {
    String value = presented(name);
    return value != null ? value : super.getHeader(name);
  }

  @Override
  public Enumeration<String> getHeaders(String name) {
    String value = presented(name);
    return value != null ? Collections.enumeration(List.of(value)) : super.getHeaders(name);
  }

  @Override
  public Enumeration<String> getHeaderNames() {
    List<String> names = new ArrayList<>();
    for (String name : Collections.list(super.getHeaderNames())) {
      if (presented(name) == null) {
        names.add(name);
      }
    }
    if (userAgent != null) {
      names.add("User-Agent");
      names.add("Sec-CH-UA-Mobile");
    }
    if (language != null) {
      names.add("Accept-Language");
    }
    if (accept != null) {
      names.add("Accept");
    }
    return Collections.enumeration(names);
  }

  @Override
  public Locale getLocale() {
    return language != null ? Languages.localeOf(language) : super.getLocale();
  }

  @Override
  public Enumeration<Locale> getLocales() {
    return language != null ? Collections.enumeration(List.of(Languages.localeOf(language))) : super.getLocales();
  }
}
