package org.pagecache.demo;

import java.util.Locale;
import java.util.Optional;

/** The three sections of the demo site; {@link #slug()} is the URL part and the tag suffix. */
public enum Section {
  WORLD("World"),
  TECH("Tech"),
  SPORT("Sport");

  private final String title;

  Section(String title) {
    this.title = title;
  }

  public String slug() {
    return name().toLowerCase(Locale.ROOT);
  }

  public String title() {
    return title;
  }

  /** The tag of every page that lists this section's articles: {@code section:tech}. */
  public String tag() {
    return "section:" + slug();
  }

  public static Optional<Section> bySlug(String slug) {
    for (Section s : values()) {
      if (s.slug().equals(slug)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
