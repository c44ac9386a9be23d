package org.pagecache.internal.text;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A list of tags as written in one text: a tag header ({@code Surrogate-Key}, {@code Cache-Tag},
 * {@code xkey}, {@code X-Cache-Tags}), an admin form field or API parameter. Tags are separated by
 * commas or white space (no tag contains either); the one rule for every place that reads such a
 * list, so a tag the application sent and the same tag an editor purges are split alike.
 */
public final class TagLists {
  private static final Pattern SEPARATORS = Pattern.compile("[,\\s]+");

  private TagLists() {}

  /** The tags in {@code text}, in order, without empty ones; none for {@code null}. */
  public static List<String> split(String text) {
    List<String> tags = new ArrayList<>();
    if (text != null) {
      for (String t : SEPARATORS.split(text)) {
        if (!t.isEmpty()) {
          tags.add(t);
        }
      }
    }
    return tags;
  }
}
