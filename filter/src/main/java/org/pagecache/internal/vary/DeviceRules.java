package org.pagecache.internal.vary;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The site's rules for {@code vary=device}: which visitors are {@code mobile}, {@code tablet} or
 * {@code desktop}, and the request a page of each class is built for. Settings (docs/configuration.md):
 * {@code device.tablet}, {@code device.mobile} and {@code device.bot} (regular expressions found
 * anywhere in {@code User-Agent}, case-insensitive), {@code device.bots} (the class of a bot) and
 * {@code device.mobile.agent}, {@code device.tablet.agent}, {@code device.desktop.agent} (the
 * {@code User-Agent} each class's pages are built with).
 *
 * <p>Order, first match wins: the client hint {@code Sec-CH-UA-Mobile: ?1} is a phone (Chromium
 * sends it on every request, so a phone's own answer beats a guess from the string); a bot gets
 * its class; a tablet; a phone, unless the hint said {@code ?0} (a phone asking for the desktop
 * site, a tablet); anything else, no {@code User-Agent} included, is a desktop. Tablets come before
 * phones because tablets' strings often carry {@code Mobile} too (an iPad's {@code Mobile/15E148}).
 * The defaults are checked against public sets of real {@code User-Agent} strings
 * ({@code DeviceRulesTest}).
 */
public record DeviceRules(Pattern tablet, Pattern mobile, Pattern bot, String bots, String mobileAgent,
    String tabletAgent, String desktopAgent) {

  public static final String MOBILE = "mobile";
  public static final String TABLET = "tablet";
  public static final String DESKTOP = "desktop";
  /** The classes, in the order a key's part and an evict list them. */
  public static final List<String> CLASSES = List.of(MOBILE, TABLET, DESKTOP);
  /** {@code device.bots=agent}: a bot is classified by its string like any browser (Googlebot Smartphone: mobile). */
  public static final String AS_AGENT = "agent";

  /**
   * Tablets: iPads, Kindles and Silk, PlayBooks, strings that say Tablet (Firefox on Android
   * tablets), Samsung's tablet models (SM-T, SM-X, SM-P), Nexus 7/9/10, and Android without
   * {@code Mobi} (Google's rule for Chrome on Android: a phone's string says Mobile, a tablet's does
   * not), except Opera Mini and phones that leave Mobile out.
   */
  public static final String DEFAULT_TABLET = "ipad|tablet|kindle|silk/|playbook|\\bsm-[tpx]\\d|nexus (?:7|9|10)\\b"
      + "|^(?!.*(?:mobi|opera mini|phone|fennec)).*android";
  /**
   * Phones: {@code Mobi} (MDN's advice), iPhone and iPod, Opera Mini, Windows Phone and Lumia, BlackBerry,
   * feature phones' browsers (Obigo, NetFront, Teleca, Polaris, MIDP), and any other Android.
   */
  public static final String DEFAULT_MOBILE = "mobi|iphone|ipod|opera mini|windows phone|windows ce|blackberry|\\bbb10\\b"
      + "|symbian|series ?60|nokia|lumia|wpdesktop|j2me|midp|\\bwap|up\\.browser|obigo|nf-browser|netfront|teleca|polaris"
      + "|palm|webos|phone|android";
  /** Crawlers and previewers: {@code ...bot/}, crawl, spider, Slurp, link previewers, page-speed tools. */
  public static final String DEFAULT_BOT = "bot[/;)-]|bot$|crawl|spider|slurp|archiver|facebookexternalhit|mediapartners"
      + "|feedfetcher|google-inspectiontool|lighthouse|pagespeed|headlesschrome";
  /** Real strings (Chrome's reduced ones, which Google sends for every Android phone and tablet). */
  public static final String DEFAULT_MOBILE_AGENT = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36"
      + " (KHTML, like Gecko) Chrome/146.0.0.0 Mobile Safari/537.36";
  public static final String DEFAULT_TABLET_AGENT = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36"
      + " (KHTML, like Gecko) Chrome/146.0.0.0 Safari/537.36";
  public static final String DEFAULT_DESKTOP_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36"
      + " (KHTML, like Gecko) Chrome/146.0.0.0 Safari/537.36";

  /** The longest part of a {@code User-Agent} read: past it a string is classified by its start. */
  static final int MAX_AGENT = 1024;

  public static final DeviceRules DEFAULTS = new DeviceRules(compile("device.tablet", DEFAULT_TABLET),
      compile("device.mobile", DEFAULT_MOBILE), compile("device.bot", DEFAULT_BOT), DESKTOP, DEFAULT_MOBILE_AGENT,
      DEFAULT_TABLET_AGENT, DEFAULT_DESKTOP_AGENT);

  /**
   * The rules from the settings' values; an empty value keeps the default.
   *
   * @throws IllegalArgumentException naming the setting, its value and what is accepted
   */
  public static DeviceRules parse(String tablet, String mobile, String bot, String bots, String mobileAgent,
      String tabletAgent, String desktopAgent) {
    DeviceRules rules = new DeviceRules(compile("device.tablet", orDefault(tablet, DEFAULT_TABLET)),
        compile("device.mobile", orDefault(mobile, DEFAULT_MOBILE)), compile("device.bot", orDefault(bot, DEFAULT_BOT)),
        botsClass(bots), agent("device.mobile.agent", orDefault(mobileAgent, DEFAULT_MOBILE_AGENT)),
        agent("device.tablet.agent", orDefault(tabletAgent, DEFAULT_TABLET_AGENT)),
        agent("device.desktop.agent", orDefault(desktopAgent, DEFAULT_DESKTOP_AGENT)));
    for (String deviceClass : CLASSES) { // a build for a class, and a background rebuild's request, must be of it
      String agent = rules.agentOf(deviceClass);
      String found = rules.classify(agent, MOBILE.equals(deviceClass) ? "?1" : "?0");
      if (!found.equals(deviceClass)) {
        throw new IllegalArgumentException("device." + deviceClass + ".agent: '" + agent + "' is classified " + found
            + " by the device rules, not " + deviceClass + "; use a User-Agent of a " + deviceClass
            + " that device." + deviceClass + (deviceClass.equals(DESKTOP) ? " (matching neither device.tablet nor"
            + " device.mobile)" : "") + " matches");
      }
    }
    return rules;
  }

  /**
   * The class of a visitor.
   *
   * @param userAgent  the {@code User-Agent}, or null
   * @param mobileHint the {@code Sec-CH-UA-Mobile} client hint ({@code ?1} or {@code ?0}), or null
   */
  public String classify(String userAgent, String mobileHint) {
    String hint = mobileHint == null ? "" : mobileHint.trim();
    if (hint.equals("?1")) {
      return MOBILE;
    }
    if (userAgent == null || userAgent.isEmpty()) {
      return DESKTOP;
    }
    String ua = userAgent.length() > MAX_AGENT ? userAgent.substring(0, MAX_AGENT) : userAgent;
    if (!bots.equals(AS_AGENT) && bot.matcher(ua).find()) {
      return bots;
    }
    if (tablet.matcher(ua).find()) {
      return TABLET;
    }
    if (!hint.equals("?0") && mobile.matcher(ua).find()) {
      return MOBILE;
    }
    return DESKTOP;
  }

  /** The {@code User-Agent} a page of this class is built with. */
  public String agentOf(String deviceClass) {
    return switch (deviceClass) {
      case MOBILE -> mobileAgent;
      case TABLET -> tabletAgent;
      default -> desktopAgent;
    };
  }

  private static String orDefault(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value.trim();
  }

  private static Pattern compile(String param, String regex) {
    try {
      return Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(param + ": '" + regex + "' is not a regular expression (" + e.getDescription()
          + "); use a Java regular expression found anywhere in User-Agent, case-insensitive, e.g. ipad|tablet");
    }
  }

  private static String botsClass(String value) {
    String v = value == null || value.isBlank() ? DESKTOP : value.trim().toLowerCase(Locale.ROOT);
    if (!CLASSES.contains(v) && !v.equals(AS_AGENT)) {
      throw new IllegalArgumentException("device.bots: '" + value + "' is not accepted; use desktop (the default),"
          + " mobile, tablet, or agent (a bot is classified by its User-Agent like any browser)");
    }
    return v;
  }

  private static String agent(String param, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw new IllegalArgumentException(param + ": '" + value + "' is not accepted; use a User-Agent string of"
            + " printable ASCII characters");
      }
    }
    return value;
  }
}
