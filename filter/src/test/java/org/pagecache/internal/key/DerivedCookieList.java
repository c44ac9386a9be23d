package org.pagecache.internal.key;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.pagecache.internal.key.OpenCookieDatabase.Row;

/**
 * How the built-in ignore list ({@code org/pagecache/ignored-cookies.txt}) is chosen from the Open
 * Cookie Database, and the generator that writes it. {@code scripts/ignored-cookies.sh} runs
 * {@link #main}; {@code DerivedCookieListTest} fails when the committed file and this choice differ.
 *
 * <p>What is taken, first-party rows only (a third-party cookie never reaches the site, and the
 * data set's third-party rows hold names such as {@code locale} and {@code sessionid}):
 * <ul>
 *   <li>every analytics and marketing name, less {@link #LEFT_OUT} (generic names an application
 *       could use for itself, and the few that carry a sign-in, a CSRF nonce or state a server renders);
 *   <li>of the other categories ("Functional" mixes cookies applications read with those only a
 *       script or a proxy reads): the platforms of {@link #PLATFORMS} (consent managers, load
 *       balancers, CDNs and bot management, analytics and testing scripts), less {@link #LEFT_OUT},
 *       and the single names of {@link #NAMED} from platforms that also set application cookies;
 *   <li>{@link #ADDITIONS}: names that vendors' scripts set on the site's own domain but the data set
 *       files under the vendor's domain, banners it lacks, and vendor namespaces as prefixes.
 * </ul>
 * A wildcard row becomes a {@code prefix*} pattern only when the prefix has at least four characters,
 * is not on {@link #EXACT_ONLY}, and starts no first-party name of the data set that was not
 * chosen; otherwise its name is taken as it stands.
 */
final class DerivedCookieList {
  /** Where the list goes in the source tree, relative to the repository. */
  static final String SOURCE_FILE = "filter/src/main/resources" + BuiltInList.COOKIES;

  /** The sections of the list, in file order. */
  enum Family {
    TRACKING("Analytics and marketing: the data set's first-party names"),
    SCRIPT("Analytics, testing and widget scripts the data set files as Functional"),
    CONSENT("Consent managers' records"),
    LOAD_BALANCER("Load-balancer stickiness"),
    CDN("CDN and bot management"),
    ADDED("Not first-party in the data set: set on the site's domain by the vendor's script, or a vendor's namespace");

    final String title;

    Family(String title) {
      this.title = title;
    }
  }

  /** One line of the list. */
  record Entry(Family family, String platform, String pattern) {}

  /** Platforms whose first-party cookies of every category are taken (less {@link #LEFT_OUT}). */
  static final Map<String, Family> PLATFORMS = platforms();

  /** Single names taken from platforms that also set cookies applications read. */
  static final Map<String, Family> NAMED = Map.ofEntries(
      Map.entry("AWSALB", Family.LOAD_BALANCER), Map.entry("AWSALBCORS", Family.LOAD_BALANCER),
      Map.entry("AWSALBTG", Family.LOAD_BALANCER), Map.entry("AWSALBTGCORS", Family.LOAD_BALANCER),
      Map.entry("AWSELB", Family.LOAD_BALANCER), Map.entry("AWSELBCORS", Family.LOAD_BALANCER),
      Map.entry("ARRAffinity", Family.LOAD_BALANCER), Map.entry("ARRAffinitySameSite", Family.LOAD_BALANCER),
      Map.entry("ASLBSA", Family.LOAD_BALANCER), Map.entry("ASLBSACORS", Family.LOAD_BALANCER),
      Map.entry("ApplicationGatewayAffinity", Family.LOAD_BALANCER),
      Map.entry("ApplicationGatewayAffinityCORS", Family.LOAD_BALANCER),
      Map.entry("GCLB", Family.LOAD_BALANCER),
      Map.entry("__eoi", Family.SCRIPT), Map.entry("li_fat_id", Family.SCRIPT), Map.entry("li_giant", Family.SCRIPT),
      Map.entry("tk_ai", Family.SCRIPT), Map.entry("__hs_cookie_cat_pref", Family.CONSENT),
      Map.entry("__hs_gpc_banner_dismiss", Family.CONSENT), Map.entry("__hs_notify_banner_dismiss", Family.CONSENT));

  /** Names of chosen categories and platforms that are not taken, and why. */
  static final Map<String, String> LEFT_OUT = leftOut();

  /** Wildcard rows whose prefix would reach too far: taken as exact names, if at all. */
  static final Set<String> EXACT_ONLY = Set.of(
      "_gig_", // SAP's login token _gig_lt starts with it
      "recs-", "visitor_id"); // short words an application may begin its own names with

  /** Entries the data set does not give as first-party names of the chosen rows. */
  static final List<Entry> ADDITIONS = additions();

  private DerivedCookieList() {}

  /** The list chosen from {@code rows}, in file order. */
  static List<Entry> entries(List<Row> rows) {
    Map<Row, Family> chosen = new LinkedHashMap<>();
    Set<String> notChosen = new LinkedHashSet<>();
    for (Row row : rows) {
      if (!row.firstParty()) {
        continue;
      }
      Family family = family(row);
      if (family != null) {
        chosen.put(row, family);
      } else {
        notChosen.add(row.name());
      }
    }
    chosen.keySet().forEach(r -> notChosen.remove(r.name()));
    Map<String, Entry> byPattern = new LinkedHashMap<>();
    for (Map.Entry<Row, Family> c : chosen.entrySet()) {
      Row row = c.getKey();
      String pattern = row.wildcard() && safePrefix(row.name(), notChosen) ? row.name() + "*" : row.name();
      byPattern.putIfAbsent(pattern, new Entry(c.getValue(), row.platform(), pattern));
    }
    for (Entry added : ADDITIONS) {
      String prefix = added.pattern().endsWith("*") ? added.pattern().substring(0, added.pattern().length() - 1) : null;
      if (prefix != null && reaches(prefix, notChosen)) { // additions are short on purpose: only reach is checked
        throw new IllegalStateException("the addition " + added.pattern() + " reaches a cookie left out: "
            + notChosen.stream().filter(n -> n.startsWith(prefix)).toList());
      }
      byPattern.putIfAbsent(added.pattern(), added);
    }
    List<Entry> entries = new ArrayList<>(byPattern.values());
    entries.sort(Comparator.comparing(Entry::family)
        .thenComparing(e -> e.platform().toLowerCase(java.util.Locale.ROOT))
        .thenComparing(Entry::pattern));
    return entries;
  }

  /** The section a first-party row goes to, or null when it is not taken. */
  static Family family(Row row) {
    if (LEFT_OUT.containsKey(row.name()) || !CookieNames.valid(row.name())) {
      return null;
    }
    if (row.tracking()) {
      return Family.TRACKING;
    }
    Family family = PLATFORMS.get(row.platform());
    return family != null ? family : NAMED.get(row.name());
  }

  private static boolean safePrefix(String prefix, Set<String> notChosen) {
    return prefix.length() >= 4 && !EXACT_ONLY.contains(prefix) && !reaches(prefix, notChosen);
  }

  private static boolean reaches(String prefix, Set<String> notChosen) {
    return notChosen.stream().anyMatch(n -> n.startsWith(prefix));
  }

  /** The text of {@code ignored-cookies.txt}. */
  static String text(List<Row> rows) {
    StringBuilder out = new StringBuilder();
    out.append("""
        # PageCache's built-in cookie ignore list: cookies that only scripts in the browser or the proxies
        # in front read, never the application, so a request carrying only these is served from the cache.
        # One cookie name or prefix* pattern a line; names match case-sensitively.
        #
        # Derived from the Open Cookie Database (https://github.com/jkwakman/Open-Cookie-Database,
        # commit 0ee5a17), Apache License 2.0: see ignored-cookies.LICENSE and ignored-cookies.NOTICE
        # beside this file. Generated by scripts/ignored-cookies.sh from the copy in
        # filter/src/test/resources/open-cookie-database/ and the choice in DerivedCookieList (test
        # sources); do not edit by hand. How it is chosen, and what is never on it: docs/safety.md.
        """);
    Family family = null;
    String platform = null;
    for (Entry e : entries(rows)) {
      if (e.family() != family) {
        family = e.family();
        platform = null;
        out.append("\n## ").append(family.title).append('\n');
      }
      if (!e.platform().equals(platform)) {
        platform = e.platform();
        out.append("# ").append(platform.isEmpty() ? "(no platform)" : platform).append('\n');
      }
      out.append(e.pattern()).append('\n');
    }
    out.append("\n## Left out on purpose (name: why)\n");
    new TreeMap<>(LEFT_OUT).forEach((name, why) -> out.append("# ").append(name).append(": ").append(why).append('\n'));
    return out.toString();
  }

  /** Writes the list: {@code DerivedCookieList [file]}, by default {@link #SOURCE_FILE}. */
  public static void main(String[] args) throws IOException {
    Path file = Path.of(args.length > 0 ? args[0] : SOURCE_FILE);
    Files.writeString(file, text(OpenCookieDatabase.rows()), StandardCharsets.UTF_8);
    System.out.println("wrote " + file + ": " + entries(OpenCookieDatabase.rows()).size() + " names and patterns");
  }

  private static Map<String, Family> platforms() {
    Map<String, Family> p = new LinkedHashMap<>();
    for (String consent : List.of("OneTrust", "Cookiebot", "Didomi", "Complianz", "CookieYes", "Cookie Law Info",
        "Osano", "Consentmanager.net", "Cookie First", "Cookie Script", "CookieConsent.io", "Iubenda", "Termly",
        "Axeptio", "Borlabs", "Enzuzo", "Maxlead", "Moove", "PrivacyPillar", "QookieQloud", "Hu-manity.co",
        "Lightspeed", "Digital Factory", "Jimdo", "Civic", "Command Act", "Squeezely", "Google Tag Manager")) {
      p.put(consent, Family.CONSENT);
    }
    for (String lb : List.of("Citrix", "f5 BIG-IP", "HAproxy", "NGINX Ingresss", "Alteon")) {
      p.put(lb, Family.LOAD_BALANCER);
    }
    for (String cdn : List.of("Cloudflare", "CloudFlare", "Akamai", "Akamai Botmanager", "Imperva", "Datadome",
        "CHEQ AI Technologies")) {
      p.put(cdn, Family.CDN);
    }
    for (String script : List.of("Hotjar", "Visual Website Optimizer", "Convert Insights", "Parse.ly",
        "Microsoft Azure App Insights", "Lucky Orange", "Qualtrics", "Adobe Analytics", "Adobe Audience Manager",
        "Google Optimize", "Google AdSense", "Permutive", "Prebid", "ShareThis", "Blueconic.com", "Braze", "Sleeknote",
        "Sooqr", "Viafoura", "Ezoic", "Adcalls", "SnapEngage", "Wistia", "Flowbox", "Browser-Update.org",
        "SiteSpect", "WooCommerce / Jetpack")) {
      p.put(script, Family.SCRIPT);
    }
    return Map.copyOf(p);
  }

  private static Map<String, String> leftOut() {
    Map<String, String> m = new LinkedHashMap<>();
    String generic = "a short or common word an application may use for a cookie of its own";
    for (String name : List.of("i", "sp", "dst", "dpm", "fid", "gac", "gcl", "A1", "A1S", "auid", "pses", "europe",
        "opout", "lantern", "ref-", "recs-", "visitor_id", "test", "SearchTerm", "PageReferrer", "SiteReferrer",
        "BlurTime", "FocusTime", "ActionSetHistory", "queryString", "c-plan", "c-referrer", "c-signup", "nrid")) {
      m.put(name, generic);
    }
    String signIn = "its description ties it to a sign-in or a signed-in user";
    for (String name : List.of("cognito.organization", "cognito.services.a", "CPSessID", "SISessID", "TAReturnTo",
        "pa_user", "DSID", "gmid", "ucid", "_gig_shareUI_lastUID", "ab.storage.userId.", "FPGSID", "aboutads_sessNNN",
        "pm_sess", "pm_sess_NNN", "ClickAndChange", "cookieyes_session", "cookieyes_privacy_policy_generator_session",
        "ANID", "rl_auth_token")) {
      m.put(name, signIn);
    }
    m.put("matomo_sessid", "a CSRF nonce Matomo's server checks");
    m.put("cb-currency", "a currency preference");
    String serverState = "state a server reads to render (personalisation or application state)";
    for (String name : List.of("calViewState", "auraBrokenDefGraph", "apex__EmailAddress", "CurrentContact",
        "VisitorStatus", "CMSUserPage", "CMSLandingPageLoaded", "_ALGOLIA", "renderid")) {
      m.put(name, serverState);
    }
    m.put("CookieConsentBulkTicket", "third-party (cookiebot.com)");
    return Map.copyOf(m);
  }

  private static List<Entry> additions() {
    List<Entry> a = new ArrayList<>();
    add(a, "Google Analytics", "_ga_*", "_gat*", "__utm*", "_gcl_*", "_gac_*");
    add(a, "Meta Pixel", "_fbp", "_fbc");
    add(a, "Microsoft Clarity", "_clck", "_clsk");
    add(a, "Microsoft Advertising", "_uetsid", "_uetvid");
    add(a, "HubSpot", "__hstc", "__hssc", "__hssrc", "hubspotutk", "messagesUtk");
    add(a, "Amplitude", "AMP_*", "amp_*");
    add(a, "Segment", "ajs_*");
    add(a, "Mixpanel", "mp_*");
    add(a, "Pinterest", "_pin_unauth");
    add(a, "Hotjar", "_hj*");
    add(a, "Heap Analytics", "_hp2_*");
    add(a, "Matomo", "_pk_*");
    add(a, "Yandex.Metrica", "_ym_*");
    add(a, "Baidu", "Hm_lvt_*", "Hm_lpvt_*");
    add(a, "Plausible Analytics", "plausible_ignore");
    add(a, "Adobe Analytics", "s_vi", "AMCV_*", "AMCVS_*");
    add(a, "Intercom", "intercom-*");
    add(a, "IAB TCF and US Privacy (Quantcast Choice, Sourcepoint and other CMPs)", "euconsent-v2", "eupubconsent-v2",
        "addtl_consent", "usprivacy");
    add(a, "Usercentrics", "uc_settings", "uc_user_interaction");
    add(a, "TrustArc", "notice_behavior", "notice_gdpr_prefs", "notice_preferences", "notice_poptime",
        "cmapi_cookie_privacy", "cmapi_gtm_bl", "TAconsentID");
    add(a, "Klaro", "klaro");
    add(a, "Complianz", "cmplz_*");
    add(a, "Osano", "osano_consentmanager*");
    add(a, "AWS Elastic Load Balancing", "AWSALB*", "AWSELB*");
    add(a, "Azure App Service", "ARRAffinity*");
    add(a, "Akamai Bot Manager", "bm_sz", "bm_mi");
    add(a, "DataDome", "datadome");
    return List.copyOf(a);
  }

  private static void add(List<Entry> to, String platform, String... patterns) {
    for (String p : patterns) {
      to.add(new Entry(Family.ADDED, platform, p));
    }
  }
}
