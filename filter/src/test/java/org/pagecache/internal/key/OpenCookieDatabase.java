package org.pagecache.internal.key;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The copy of the Open Cookie Database in the test resources ({@code open-cookie-database/}, Apache
 * License 2.0): one {@link Row} per cookie. The file has one record a line, fields in double quotes
 * when they hold commas.
 */
final class OpenCookieDatabase {
  static final String CSV = "/open-cookie-database/open-cookie-database.csv";

  /**
   * One cookie of the data set.
   *
   * @param name     as listed, surrounding white space removed
   * @param domain   empty for a first-party cookie (set on the site's own domain)
   * @param wildcard the name is a prefix (the data set's "Wildcard match" column)
   */
  record Row(String platform, String category, String name, String domain, String description,
      boolean wildcard) {
    boolean firstParty() {
      return domain.isEmpty();
    }

    /** Analytics or marketing, the data set's two tracking categories. */
    boolean tracking() {
      return category.equals("Analytics") || category.equals("Marketing");
    }
  }

  private OpenCookieDatabase() {}

  static List<Row> rows() {
    try (InputStream in = OpenCookieDatabase.class.getResourceAsStream(CSV)) {
      if (in == null) {
        throw new IllegalStateException(CSV + " is missing from the test class path");
      }
      String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\r?\n");
      List<Row> rows = new ArrayList<>(lines.length);
      for (int i = 1; i < lines.length; i++) { // line 0 names the columns
        if (lines[i].isBlank()) {
          continue;
        }
        List<String> f = fields(lines[i]);
        if (f.size() != 10) {
          throw new IllegalStateException(CSV + " line " + (i + 1) + " has " + f.size() + " fields, not 10");
        }
        rows.add(new Row(f.get(1).strip(), f.get(2).strip(), f.get(3).strip(), f.get(4).strip(),
            f.get(5).strip(), f.get(9).strip().equals("1")));
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The fields of one CSV record (RFC 4180 quoting: {@code ""} inside quotes is one quote). */
  static List<String> fields(String line) {
    List<String> fields = new ArrayList<>(10);
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
      } else {
        field.append(c);
      }
    }
    fields.add(field.toString());
    return fields;
  }
}
