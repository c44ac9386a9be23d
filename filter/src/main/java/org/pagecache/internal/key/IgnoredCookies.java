package org.pagecache.internal.key;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cookies that servers do not read to render a page, so a request carrying only these is served
 * from the cache. The built-in list holds what Varnish guides and CDNs strip by habit: analytics
 * and advertising identifiers (set and read by scripts in the browser), consent managers' records,
 * load-balancer stickiness and CDN bot-management cookies (read by the proxy in front, not the
 * application). {@code cookies.ignore} adds names and {@code prefix*} patterns; a policy's
 * {@code cookies=vary:NAME} keys a page on a cookie even when it is listed here.
 *
 * <p>Names are matched case-sensitively, as RFC 6265 compares them.
 */
public final class IgnoredCookies {
  /** The built-in list; see docs/safety.md ("The ignore list") for why each family is on it. */
  public static final List<String> BUILT_IN = List.of(
      // Google Analytics, Tag Manager, Ads, Optimize
      "_ga", "_ga_*", "_gid", "_gat*", "__utm*", "_gcl_*", "_gac_*", "_dc_gtm_*", "_gaexp", "AMP_TOKEN",
      "__gads", "__gpi", "__eoi",
      // Meta, Microsoft Clarity and Ads, LinkedIn, TikTok, Pinterest, Reddit, Yandex, Quantcast
      "_fbp", "_fbc", "_clck", "_clsk", "_uetsid", "_uetvid", "li_fat_id", "_ttp", "_pin_unauth",
      "_rdt_uuid", "_ym_*", "__qca",
      // Hotjar, Matomo/Piwik, Mixpanel, Segment, Amplitude, HubSpot, Intercom, Heap, Plausible, Adobe
      "_hj*", "_pk_*", "mp_*", "ajs_*", "amp_*", "__hstc", "__hssc", "__hssrc", "hubspotutk",
      "intercom-*", "_hp2_*", "plausible_ignore", "s_cc", "s_sq", "s_vi", "s_fid", "AMCV_*", "AMCVS_*",
      // consent managers: OneTrust, IAB TCF, Cookiebot, Didomi, Usercentrics, Osano, Complianz, CookieYes, Klaro
      "OptanonConsent", "OptanonAlertBoxClosed", "euconsent-v2", "eupubconsent-v2", "CookieConsent",
      "didomi_token", "uc_settings", "uc_user_interaction", "osano_consentmanager*", "cmplz_*",
      "cookieyes-consent", "klaro",
      // load-balancer stickiness: AWS ALB/ELB, Google Cloud, Azure App Service, F5 BIG-IP, Citrix
      "AWSALB*", "AWSELB*", "GCLB", "ARRAffinity*", "BIGipServer*", "NSC_*",
      // CDN and bot management: Cloudflare, Akamai, Imperva
      "__cf_bm", "cf_clearance", "__cflb", "__cfruid", "_cfuvid", "ak_bmsc", "bm_sv", "bm_sz", "_abck",
      "visid_incap_*", "incap_ses_*", "nlbi_*");

  private final Set<String> exact = new HashSet<>();
  private final List<String> prefixes = new ArrayList<>();
  private final List<String> extra;

  private IgnoredCookies(List<String> extra) {
    this.extra = List.copyOf(extra);
    for (String pattern : BUILT_IN) {
      add(pattern);
    }
    extra.forEach(this::add);
  }

  /** The built-in list only. */
  public static IgnoredCookies builtIn() {
    return new IgnoredCookies(List.of());
  }

  /**
   * The built-in list plus the names and {@code prefix*} patterns of {@code cookies.ignore}
   * (separated by commas, {@code |} or spaces).
   */
  public static IgnoredCookies parse(String param, String value) {
    List<String> extra = new ArrayList<>();
    for (String p : value.split("[,|\\s]+")) {
      if (p.isEmpty()) {
        continue;
      }
      String name = p.endsWith("*") ? p.substring(0, p.length() - 1) : p;
      if (!CookieNames.valid(name)) {
        throw new IllegalArgumentException(param + ": '" + p
            + "' is not a cookie name or prefix* pattern (e.g. XSRF-TOKEN, _myanalytics_*)");
      }
      extra.add(p);
    }
    return new IgnoredCookies(extra);
  }

  private void add(String pattern) {
    if (pattern.endsWith("*")) {
      prefixes.add(pattern.substring(0, pattern.length() - 1));
    } else {
      exact.add(pattern);
    }
  }

  public boolean ignored(String name) {
    if (exact.contains(name)) {
      return true;
    }
    for (String prefix : prefixes) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** What {@code cookies.ignore} added to the built-in list. */
  public List<String> extra() {
    return extra;
  }
}
