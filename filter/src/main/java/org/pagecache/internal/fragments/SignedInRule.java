package org.pagecache.internal.fragments;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * How a policy treats signed-in visitors ({@code signed-in=}, docs/fragments.md): past the cache
 * (the default), or served from the cache with pages per group, the group computed on the server
 * from the principal:
 * <pre>
 *   bypass          every signed-in request goes to the handler (as before fragments)
 *   shared          one page for every signed-in visitor
 *   roles:A|B       one page per set of these roles the visitor has (isUserInRole)
 *   context         one page per value of the application's own hasher (PageCache.userContext)
 *   user            one page per user: the policy asks for it, and the name is hashed into the key
 * </pre>
 * The group goes into the page key as a SHA-256 digest: names never reach keys. Signed-in pages
 * never share a key with anonymous ones.
 *
 * @param mode  the mode
 * @param roles the roles of {@code roles:}, in the order written; empty otherwise
 */
public record SignedInRule(Mode mode, List<String> roles) {
  public enum Mode { BYPASS, SHARED, ROLES, CONTEXT, USER }

  /** The key part's name: no header name can spell it (a colon), so it never meets a vary part. */
  public static final String KEY_PART = "signed-in:";
  public static final SignedInRule BYPASS = new SignedInRule(Mode.BYPASS, List.of());
  private static final Map<String, SignedInRule> PARSED = new ConcurrentHashMap<>();
  private static final String ACCEPTED = "bypass (the default), shared, roles:NAME|NAME, context or user";

  public SignedInRule {
    roles = List.copyOf(roles);
  }

  /**
   * The rule a policy's value names.
   *
   * @throws IllegalArgumentException naming {@code param}, the value and what is accepted
   */
  public static SignedInRule parse(String param, String value) {
    String v = value.trim();
    String lower = v.toLowerCase(Locale.ROOT);
    switch (lower) {
      case "bypass", "off" -> {
        return BYPASS;
      }
      case "shared" -> {
        return new SignedInRule(Mode.SHARED, List.of());
      }
      case "context" -> {
        return new SignedInRule(Mode.CONTEXT, List.of());
      }
      case "user" -> {
        return new SignedInRule(Mode.USER, List.of());
      }
      default -> { }
    }
    if (lower.startsWith("roles:")) {
      List<String> roles = new ArrayList<>();
      for (String r : v.substring("roles:".length()).split("[|\\s]+")) {
        if (r.isEmpty()) {
          continue;
        }
        if (!r.matches("[A-Za-z0-9_.:-]{1,64}")) {
          throw new IllegalArgumentException(param + ": '" + r + "' is not a role name; use 1 to 64 of A-Z a-z 0-9 _ . : -");
        }
        roles.add(r);
      }
      if (!roles.isEmpty()) {
        return new SignedInRule(Mode.ROLES, roles);
      }
    }
    throw new IllegalArgumentException(param + ": '" + value + "' is not accepted; use " + ACCEPTED);
  }

  /** The rule of a policy's stored value (parsed once, it was checked when the policy was made). */
  public static SignedInRule of(String spec) {
    return spec == null || spec.isEmpty() || spec.equals("bypass") ? BYPASS
        : PARSED.computeIfAbsent(spec, s -> parse("signed-in", s));
  }

  /** The rule in its spec syntax. */
  public String spec() {
    return switch (mode) {
      case BYPASS -> "bypass";
      case SHARED -> "shared";
      case CONTEXT -> "context";
      case USER -> "user";
      case ROLES -> "roles:" + String.join("|", roles);
    };
  }

  /** True when a build may read the principal and its roles: the page is keyed on the user. */
  public boolean principalKeyed() {
    return mode == Mode.USER;
  }

  /** The roles a build may ask about ({@code isUserInRole}): they are in the key. */
  public Set<String> keyedRoles() {
    return Set.copyOf(roles);
  }

  /**
   * The value of the page key's signed-in part for this signed-in visitor: a digest, never a name.
   *
   * @param context the application's hasher ({@code context}); null when it registered none
   * @return the group, or null when this visitor cannot be placed in one (no hasher, or it gave
   *     null or threw): such a request bypasses
   */
  public String group(HttpServletRequest req, String user, Function<HttpServletRequest, String> context) {
    String clear = switch (mode) {
      case BYPASS -> null;
      case SHARED -> "shared";
      case USER -> "user\n" + user;
      case ROLES -> {
        StringBuilder b = new StringBuilder("roles");
        for (String role : roles) {
          if (req.isUserInRole(role)) {
            b.append('\n').append(role);
          }
        }
        yield b.toString();
      }
      case CONTEXT -> {
        try {
          String c = context == null ? null : context.apply(req);
          yield c == null ? null : "context\n" + c;
        } catch (RuntimeException e) {
          yield null;
        }
      }
    };
    return clear == null ? null : DIGESTS.computeIfAbsent(clear, SignedInRule::digest);
  }

  /**
   * Groups' digests, kept: a role set or a context has few values and is digested once; with
   * {@code user} there is one per user, so the map is emptied when it grows past its bound.
   */
  private static final Map<String, String> DIGESTS = new ConcurrentHashMap<>() {
    @Override
    public String computeIfAbsent(String key, Function<? super String, ? extends String> f) {
      if (size() > 10_000) {
        clear();
      }
      return super.computeIfAbsent(key, f);
    }
  };

  private static String digest(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JVM has SHA-256
    }
  }
}
