package org.pagecache.internal.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.key.OpenCookieDatabase.Row;

/**
 * The built-in ignore list against the Open Cookie Database it is derived from: in step with the
 * data set and the choice in {@link DerivedCookieList}, covering at least 80 % of the data set's
 * first-party analytics and marketing names, and reaching nothing the choice left out.
 */
class DerivedCookieListTest {
  private static final List<Row> ROWS = OpenCookieDatabase.rows();
  private final IgnoredCookies builtIn = IgnoredCookies.builtIn();

  @Test
  void theCommittedListIsInStepWithTheDataSetAndTheChoice() throws IOException {
    String committed;
    try (InputStream in = getClass().getResourceAsStream(BuiltInList.COOKIES)) {
      committed = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertEquals(DerivedCookieList.text(ROWS), committed,
        "ignored-cookies.txt is out of step with the data set or DerivedCookieList: run scripts/ignored-cookies.sh");
    assertEquals(DerivedCookieList.entries(ROWS).stream().map(DerivedCookieList.Entry::pattern).toList(),
        IgnoredCookies.BUILT_IN, "BUILT_IN is the file's patterns in order");
  }

  @Test
  void theListCoversAtLeast80PercentOfTheFirstPartyAnalyticsAndMarketingNames() {
    Set<String> names = ROWS.stream().filter(r -> r.firstParty() && r.tracking()).map(Row::name)
        .collect(Collectors.toCollection(TreeSet::new));
    Set<String> missed = names.stream().filter(n -> !builtIn.ignored(n)).collect(Collectors.toCollection(TreeSet::new));
    double coverage = 1.0 - (double) missed.size() / names.size();
    System.out.printf("ignore list coverage of the data set's first-party analytics and marketing names: %d of %d (%.1f %%)%n",
        names.size() - missed.size(), names.size(), 100 * coverage);
    assertEquals(438, names.size(), "the data set's copy changed: check the figures in docs/safety.md");
    assertTrue(coverage >= 0.80, "coverage " + coverage + "; not ignored: " + missed);
  }

  @Test
  void noCookieTheChoiceLeavesOutIsIgnoredByNameOrPattern() {
    Set<String> chosen = ROWS.stream().filter(r -> r.firstParty() && DerivedCookieList.family(r) != null)
        .map(Row::name).collect(Collectors.toSet());
    Set<String> reached = new TreeSet<>();
    for (Row row : ROWS) {
      if (row.firstParty() && !chosen.contains(row.name()) && builtIn.ignored(row.name())) {
        reached.add(row.platform() + " " + row.name());
      }
    }
    assertEquals(Set.of(), reached);
    for (String name : DerivedCookieList.LEFT_OUT.keySet()) {
      assertTrue(!builtIn.ignored(name), name);
    }
  }

  /** Names whose descriptions mention a session or sign-in, yet only a tracking script reads them. */
  private static final Map<String, String> SESSIONS_OF_SCRIPTS = Map.of(
      "__eoi", "Google's ad-fraud check ('authenticate users' of Google's ads)",
      "ai_session", "Application Insights' anonymous telemetry session, set and read by its browser script",
      "_hjptid", "Hotjar's own admin app, never set on another site",
      "__ss", "SharpSpring's tracking visit id",
      "intercom-session-", "Intercom's messenger session, read by the widget",
      "_vfa", "Viafoura's analytics identifiers",
      "_rd_wa_ses_id", "RD Station's tracking visit id",
      "_sp_wa_ses_id", "RD Station's tracking visit id");

  @Test
  void noIgnoredCookieIsDescribedAsASignInSessionCsrfLanguageCurrencyOrCart() {
    Pattern appReads = Pattern.compile("log(ged)?[ -]?in|sign(ed)?[ -]?in|authenticat|csrf|cross[- ]site request"
        + "|language|currency|shopping cart|\\bcart\\b|basket|session id|session identifier|password",
        Pattern.CASE_INSENSITIVE);
    Set<String> described = new TreeSet<>();
    for (Row row : ROWS) {
      if (row.firstParty() && builtIn.ignored(row.name()) && appReads.matcher(row.description()).find()
          && !SESSIONS_OF_SCRIPTS.containsKey(row.name())) {
        described.add(row.platform() + " " + row.name() + ": " + row.description());
      }
    }
    assertEquals(Set.of(), described);
  }

  @Test
  void theConsentRecordsOfTheWidelyUsedBannersAreIgnored() {
    for (String name : List.of("OptanonConsent", "OptanonAlertBoxClosed", // OneTrust
        "CookieConsent", // Cookiebot
        "didomi_token", "euconsent-v2", // Didomi, IAB TCF (Quantcast Choice, Sourcepoint...)
        "addtl_consent", "usprivacy", // Google's additional consent, IAB US privacy
        "uc_settings", "uc_user_interaction", // Usercentrics
        "cookieyes-consent", "cky-consent", // CookieYes
        "cmplz_banner-status", "cmplz_consented_services", // Complianz
        "osano_consentmanager", "osano_consentmanager_uuid", // Osano
        "notice_gdpr_prefs", "notice_preferences", "TAconsentID", // TrustArc
        "klaro", // Klaro
        "viewed_cookie_policy", "CookieLawInfoConsent", // GDPR Cookie Consent (Cookie Law Info)
        "_iub_cs-1234567", "__tlbcpv", "__cmpconsent42", "cookiefirst-consent", "CookieScriptConsent",
        "borlabs-cookie", "axeptio_cookies", "__hs_cookie_cat_pref")) {
      assertTrue(builtIn.ignored(name), name);
    }
  }

  @Test
  void loadBalancerAndCdnCookiesAreIgnored() {
    for (String name : List.of("AWSALB", "AWSALBCORS", "AWSALBTG", "AWSELB", "ARRAffinity", "ARRAffinitySameSite",
        "ApplicationGatewayAffinity", "GCLB", "BIGipServerpool_web", "NSC_vsrv", "SERVERID", "INGRESSCOOKIE",
        "__cf_bm", "cf_clearance", "__cflb", "__cfruid", "_cfuvid", "_abck", "ak_bmsc", "bm_sv", "bm_sz",
        "visid_incap_123", "incap_ses_1_2", "nlbi_123", "datadome")) {
      assertTrue(builtIn.ignored(name), name);
    }
  }

  @Test
  void aWildcardBecomesAPatternOnlyWhereSafe() {
    Set<String> patterns = Set.copyOf(IgnoredCookies.BUILT_IN);
    assertTrue(patterns.contains("_pk_id*") && patterns.contains("BIGipServer*") && patterns.contains("_hjSession_*"));
    assertTrue(patterns.contains("_gig_") && !patterns.contains("_gig_*"), "_gig_* would reach SAP's login token _gig_lt");
    assertTrue(!builtIn.ignored("_gig_lt") && !builtIn.ignored("recs-shown") && !builtIn.ignored("visitor_id"));
  }
}
