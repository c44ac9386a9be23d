package org.pagecache.internal.json;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A minimal streaming JSON writer, so the filter needs no JSON library. It escapes every string
 * fully (RFC 8259: quote, backslash, control characters) and also {@code < > &} and U+2028/U+2029,
 * so its output is safe even if someone pastes it into an HTML page or a script.
 *
 * <pre>
 *   String body = new Json().beginObject().field("handler", "article").field("token", 42L).endObject().toString();
 * </pre>
 */
public final class Json {
  private final StringBuilder out = new StringBuilder();
  /** One entry per open object or array: whether it already has a member (so the next needs a comma). */
  private final Deque<Boolean> hasMember = new ArrayDeque<>();
  private boolean afterName;

  public Json() {
  }

  /** One JSON string literal, escaped as above; for code outside this package that writes JSON by hand. */
  public static String string(String s) {
    Json json = new Json();
    json.quote(s);
    return json.out.toString();
  }

  /** {@code {"error":"..."}}: the body of every API error. */
  public static String error(String message) {
    return new Json().beginObject().field("error", message).endObject().toString();
  }

  public Json beginObject() {
    separate();
    out.append('{');
    hasMember.push(false);
    return this;
  }

  public Json endObject() {
    hasMember.pop();
    out.append('}');
    return this;
  }

  public Json beginArray() {
    separate();
    out.append('[');
    hasMember.push(false);
    return this;
  }

  public Json endArray() {
    hasMember.pop();
    out.append(']');
    return this;
  }

  public Json name(String name) {
    separate();
    quote(name);
    out.append(':');
    afterName = true;
    return this;
  }

  public Json value(String value) {
    separate();
    if (value == null) {
      out.append("null");
    } else {
      quote(value);
    }
    return this;
  }

  public Json value(long value) {
    separate();
    out.append(value);
    return this;
  }

  /** Finite numbers as they are; NaN and infinities (not JSON) as null. */
  public Json value(double value) {
    separate();
    out.append(Double.isFinite(value) ? Double.toString(value) : "null");
    return this;
  }

  /** A number or null (e.g. a statistic a down server could not give). */
  public Json value(Long value) {
    return value == null ? nullValue() : value(value.longValue());
  }

  /** A number or null. */
  public Json value(Double value) {
    return value == null ? nullValue() : value(value.doubleValue());
  }

  public Json value(boolean value) {
    separate();
    out.append(value);
    return this;
  }

  public Json nullValue() {
    separate();
    out.append("null");
    return this;
  }

  /**
   * A member: its name, then the value as JSON (a string, a number, a boolean, or null). One
   * method for every kind of value, so a call reads the same whatever the field holds.
   */
  public Json field(String name, Object value) {
    name(name);
    if (value == null) {
      return nullValue();
    } else if (value instanceof String text) {
      return value(text);
    } else if (value instanceof Boolean flag) {
      return value(flag.booleanValue());
    } else if (value instanceof Double || value instanceof Float) {
      return value(((Number) value).doubleValue());
    } else if (value instanceof Number whole) {
      return value(whole.longValue());
    }
    throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private void separate() {
    if (afterName) {
      afterName = false;
      return;
    }
    if (!hasMember.isEmpty()) {
      if (hasMember.pop()) {
        out.append(',');
      }
      hasMember.push(true);
    }
  }

  private void quote(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          // Lone surrogates are escaped too: written raw they would become '?' in UTF-8.
          boolean loneSurrogate = Character.isSurrogate(c) && !pairedSurrogate(s, i);
          if (c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029' || loneSurrogate) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static boolean pairedSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
