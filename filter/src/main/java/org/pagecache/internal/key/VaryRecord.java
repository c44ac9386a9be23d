package org.pagecache.internal.key;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import org.pagecache.internal.store.StoredPage;

/**
 * Keys of pages whose responses vary (RFC 9111 4.1), per URL: the URL's primary key holds a small
 * record naming the request headers its responses varied on, and each variant is stored under a
 * secondary key made of the primary parts and those headers' values (Varnish's design). One page's
 * {@code Vary} never changes another page's key, and a page without {@code Vary} still costs one
 * round trip per hit.
 */
public final class VaryRecord {
  private VaryRecord() {}

  /**
   * The header names a response's {@code Vary} fields list, lower-cased, in order, without
   * duplicates, without those the policy varies on already, and without {@code Accept-Encoding}
   * (the cache serves both codings from one entry). {@code *} is left out: such a response is never stored.
   */
  public static List<String> names(List<String> varyValues, List<String> policyVary) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    for (String v : varyValues) {
      for (String n : v.split(",")) {
        String name = n.trim().toLowerCase(Locale.ROOT);
        if (!name.isEmpty() && !name.equals("*") && !name.equals("accept-encoding") && !policyVary.contains(name)) {
          names.add(name);
        }
      }
    }
    return List.copyOf(names);
  }

  /** The key part naming the record a variant belongs to (its creation time). */
  public static String[] keyPart(long recordMillis) {
    return new String[] {"\u0000vary-record", Long.toString(recordMillis)};
  }

  /** The headers a variant's key is made of: the policy's, then the response's own, sorted (the same on every JVM). */
  public static List<String> keyHeaders(List<String> policyVary, List<String> responseNames) {
    List<String> extra = new ArrayList<>();
    for (String name : responseNames) {
      if (!policyVary.contains(name) && !extra.contains(name)) {
        extra.add(name);
      }
    }
    Collections.sort(extra);
    List<String> all = new ArrayList<>(policyVary);
    all.addAll(extra);
    return all;
  }

  /** True when {@code page} is this request's variant: the request has the values of the headers the page varies on. */
  public static boolean matches(StoredPage page, HttpServletRequest req) {
    for (StoredPage.Header h : page.vary()) {
      if (!h.value().equals(PageKeys.headerValue(req, h.name()))) {
        return false;
      }
    }
    return true;
  }
}
