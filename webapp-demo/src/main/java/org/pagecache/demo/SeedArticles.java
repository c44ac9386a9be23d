package org.pagecache.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's content: 36 articles, 12 per section, one published every two hours up to start-up,
 * sections taking turns so the home page mixes them. Ids run from 1 (oldest) to 36 (newest).
 */
public final class SeedArticles {
  private static final List<String> WORLD = List.of(
      "Harbour city opens its first floating library",
      "Mountain villages vote to share one school bus",
      "River clean-up brings otters back after forty years",
      "Night trains return to three northern routes",
      "Island council tries a four-day week for its staff",
      "Archive of old sea charts goes online for free",
      "Coastal towns plant a hundred kilometres of dunes",
      "Volunteer firefighters get a new lookout tower",
      "Old salt mine becomes a concert hall",
      "Border market reopens after a decade",
      "Capital's tram network adds a night line",
      "Fishing cooperative buys its first electric boat");
  private static final List<String> TECH = List.of(
      "Why your page is slow: a tour of one request",
      "memcached at twenty: the cache that refuses to retire",
      "A database call costs 300 ms, a cache hit 65 microseconds",
      "Open-source maintainers try a shared on-call rota",
      "The quiet comeback of server-rendered HTML",
      "How a stampede of rebuilds took a news site down",
      "Consistent hashing explained with a pizza",
      "Java 17 in production: what changed for servlet applications",
      "Counting page views without writing to the database",
      "The case for short TTLs and long grace periods",
      "Cache invalidation, the other hard problem",
      "Tiny laptops, big compilers: a benchmark");
  private static final List<String> SPORT = List.of(
      "Underdogs win the cup on penalties",
      "Marathon record falls on a windless morning",
      "Local climbing gym hosts its first national final",
      "Rowing club celebrates a century on the river",
      "Cyclists finish the mountain stage in the dark",
      "Chess prodigy, 12, draws with the champion",
      "Women's league sells out the old stadium",
      "Swimmer crosses the strait in record time",
      "Ski jump reopens after a summer of repairs",
      "Amateur team reaches the quarter-finals",
      "Referees trial video review in the lower leagues",
      "Veteran goalkeeper plays his 600th match");

  public static final int COUNT = WORLD.size() + TECH.size() + SPORT.size();

  private SeedArticles() {}

  /** The articles, the newest published at {@code now}. */
  public static List<Article> all(Instant now) {
    List<Article> articles = new ArrayList<>(COUNT);
    for (int i = 0; i < COUNT; i++) {
      long id = i + 1;
      Section section = Section.values()[i % 3];
      String title = titles(section).get(i / 3);
      Instant published = now.minus(Duration.ofHours(2L * (COUNT - id)));
      articles.add(new Article(id, section, title, body(id, section, title), published, published, 0));
    }
    return articles;
  }

  private static List<String> titles(Section section) {
    return switch (section) {
      case WORLD -> WORLD;
      case TECH -> TECH;
      case SPORT -> SPORT;
    };
  }

  private static String body(long id, Section section, String title) {
    return title + ": this is article " + id + " of the PageCache demo, filed under " + section.title()
        + ". Its text lives in an H2 database reached through a deliberately slow CMS service.\n\n"
        + "Load this page twice. The first request waits for the CMS and stores the whole page in memcached;"
        + " the second is served from memcached without calling the CMS at all. The footer tells which happened,"
        + " and how many CMS calls the site has made so far.\n\n"
        + "Change this headline in the editor (/cms/): saving invalidates the tag " + Article.tag(id)
        + ", so this page and the lists that show it are rebuilt on their next request, and nothing else.";
  }
}
