package org.pagecache.internal.vary;

import com.github.benmanes.caffeine.cache.Cache;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The declared classes of one handler's {@code vary=} ({@code device}, {@code language},
 * {@code format}): classifies a request ({@link #classify}), names the request headers they are read
 * from ({@link #headersOf}: they are keyed, never reported as unkeyed, never a vary record) and the
 * {@code Vary} a response carries downstream ({@link #varyOf}), and lists every key value a URL's
 * pages may have (an evict reaches each).
 *
 * <p>A hit classifies its request too, so each header value's class is remembered in a bounded
 * cache ({@link VisitorClasses}): a regular expression or a language lookup runs once per distinct
 * value, not once per request.
 */
public final class HandlerClasses {
  public static final String DEVICE = "device";
  public static final String LANGUAGE = "language";
  public static final String FORMAT = "format";
  /** The names {@code vary=} takes as classes rather than header names. */
  public static final List<String> NAMES = List.of(DEVICE, LANGUAGE, FORMAT);
  /** A value past this length is classified each time, never remembered (a cache of short keys). */
  static final int LONGEST_REMEMBERED = 512;

  private final DeviceRules rules;
  private final Languages languages;
  private final Formats formats;
  private final Cache<String, String> devices;
  private final Cache<String, String> languageCache;
  private final Cache<String, String> formatCache;

  HandlerClasses(DeviceRules rules, Languages languages, Formats formats, Cache<String, String> devices,
      Cache<String, String> languageCache, Cache<String, String> formatCache) {
    this.rules = rules;
    this.languages = languages;
    this.formats = formats;
    this.devices = devices;
    this.languageCache = languageCache;
    this.formatCache = formatCache;
  }

  /** The visitor's classes: one value per declared class. */
  public VisitorClass classify(HttpServletRequest req) {
    String device = null;
    if (rules != null) {
      String ua = req.getHeader("User-Agent");
      String hint = req.getHeader("Sec-CH-UA-Mobile");
      device = remembered(devices, hint == null ? ua : hint + "\n" + ua, k -> rules.classify(ua, hint));
    }
    String language = null;
    if (languages != null) {
      String header = req.getHeader("Accept-Language");
      language = remembered(languageCache, header, languages::classify);
    }
    String format = null;
    if (formats != null) {
      String header = req.getHeader("Accept");
      format = remembered(formatCache, header, formats::classify);
    }
    return new VisitorClass(device, language, format, rules);
  }

  private static String remembered(Cache<String, String> cache, String value, Function<String, String> classify) {
    if (value == null || value.length() > LONGEST_REMEMBERED) {
      return classify.apply(value);
    }
    return cache.get(value, classify);
  }

  /** Every key value a page of this handler may have: one per combination of classes (an evict deletes each). */
  public List<String> keyValues() {
    List<String> devicesList = rules != null ? DeviceRules.CLASSES : nullList();
    List<String> languageList = languages != null ? languages.tags() : nullList();
    List<String> formatList = formats != null ? formats.types() : nullList();
    List<String> values = new ArrayList<>();
    for (String d : devicesList) {
      for (String l : languageList) {
        for (String f : formatList) {
          values.add(VisitorClass.value(d, l, f));
        }
      }
    }
    return values;
  }

  private static List<String> nullList() {
    List<String> one = new ArrayList<>(1);
    one.add(null);
    return one;
  }

  /** The request headers (lower case) the declared classes are read from: covered by the key. */
  public static List<String> headersOf(List<String> classes) {
    List<String> headers = new ArrayList<>(4);
    for (String name : varyOf(classes)) {
      headers.add(name.toLowerCase(java.util.Locale.ROOT));
    }
    return headers;
  }

  /**
   * The {@code Vary} field names a response of these classes carries downstream: the headers the
   * class is read from. A cache in front that honours {@code Vary} keys on the raw headers, which
   * is finer than the class, so it can never give one class's page to another.
   */
  public static List<String> varyOf(List<String> classes) {
    List<String> names = new ArrayList<>(4);
    if (classes.contains(DEVICE)) {
      names.add("User-Agent");
      names.add("Sec-CH-UA-Mobile");
    }
    if (classes.contains(LANGUAGE)) {
      names.add("Accept-Language");
    }
    if (classes.contains(FORMAT)) {
      names.add("Accept");
    }
    return names;
  }
}
