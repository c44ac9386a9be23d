package org.pagecache.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.h2.jdbcx.JdbcConnectionPool;

/**
 * The CMS's storage: an H2 database in memory, one per deployment, gone when the application
 * stops. Plain JDBC on H2's own small connection pool; no delay here (see {@link Cms}).
 *
 * <pre>
 *   try (ArticleDatabase db = ArticleDatabase.inMemory()) {
 *     db.insert(SeedArticles.all(Instant.now()));
 *     db.latest(10);
 *   }
 * </pre>
 */
public final class ArticleDatabase implements AutoCloseable {
  private static final String COLUMNS = "id, section, title, body, published_at, updated_at, views";

  private final JdbcConnectionPool pool;

  private ArticleDatabase(JdbcConnectionPool pool) {
    this.pool = pool;
  }

  /** A new, empty database with its schema. Each call makes a separate database. */
  public static ArticleDatabase inMemory() {
    // A unique name: two deployments in one JVM (tests, a container with two copies) must not share
    // rows. DB_CLOSE_DELAY=-1 keeps it while the pool has no open connection; close() drops it.
    String url = "jdbc:h2:mem:pagecache-demo-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    ArticleDatabase db = new ArticleDatabase(JdbcConnectionPool.create(url, "sa", ""));
    db.createSchema();
    return db;
  }

  private void createSchema() {
    run("create the schema", c -> {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE article ("
            + " id BIGINT PRIMARY KEY,"
            + " section VARCHAR(16) NOT NULL,"
            + " title VARCHAR(" + Article.MAX_TITLE + ") NOT NULL,"
            + " body VARCHAR(" + Article.MAX_BODY + ") NOT NULL,"
            + " published_at BIGINT NOT NULL,"
            + " updated_at BIGINT NOT NULL,"
            + " views BIGINT DEFAULT 0 NOT NULL)");
        s.execute("CREATE INDEX article_by_section ON article (section, published_at DESC)");
        s.execute("CREATE INDEX article_by_date ON article (published_at DESC)");
      }
      return null;
    });
  }

  public void insert(List<Article> articles) {
    run("insert articles", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO article (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)")) {
        for (Article a : articles) {
          ps.setLong(1, a.id());
          ps.setString(2, a.section().slug());
          ps.setString(3, a.title());
          ps.setString(4, a.body());
          ps.setLong(5, a.publishedAt().toEpochMilli());
          ps.setLong(6, a.updatedAt().toEpochMilli());
          ps.setLong(7, a.views());
          ps.addBatch();
        }
        ps.executeBatch();
      }
      return null;
    });
  }

  /** The newest articles of all sections. */
  public List<Article> latest(int limit) {
    return query("SELECT " + COLUMNS + " FROM article ORDER BY published_at DESC, id DESC LIMIT ?", limit);
  }

  /** Every article, newest first (the editor's list). */
  public List<Article> all() {
    return query("SELECT " + COLUMNS + " FROM article ORDER BY published_at DESC, id DESC");
  }

  /** One page of a section, newest first; a page past the last one comes back empty. */
  public SectionPage section(Section section, int page, int pageSize) {
    int total = run("count a section", c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM article WHERE section = ?")) {
        ps.setString(1, section.slug());
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getInt(1);
        }
      }
    });
    int pages = Math.max(1, (total + pageSize - 1) / pageSize);
    List<Article> articles = query("SELECT " + COLUMNS + " FROM article WHERE section = ?"
        + " ORDER BY published_at DESC, id DESC LIMIT ? OFFSET ?",
        section.slug(), pageSize, (long) (page - 1) * pageSize);
    return new SectionPage(section, articles, page, pages, total);
  }

  public Optional<Article> find(long id) {
    return query("SELECT " + COLUMNS + " FROM article WHERE id = ?", id).stream().findFirst();
  }

  /** Changes title and body; false if there is no such article. */
  public boolean update(long id, String title, String body, Instant now) {
    return run("update article " + id, c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE article SET title = ?, body = ?, updated_at = ? WHERE id = ?")) {
        ps.setString(1, title);
        ps.setString(2, body);
        ps.setLong(3, now.toEpochMilli());
        ps.setLong(4, id);
        return ps.executeUpdate() == 1;
      }
    });
  }

  /** The durable view count; 0 for an unknown article. */
  public long views(long id) {
    return find(id).map(Article::views).orElse(0L);
  }

  /** Adds view increments (article id → views) in one transaction: all of them or, on failure, none. */
  public void addViews(Map<Long, Long> increments) {
    if (increments.isEmpty()) {
      return;
    }
    run("add views", c -> {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement("UPDATE article SET views = views + ? WHERE id = ?")) {
        for (Map.Entry<Long, Long> e : increments.entrySet()) {
          ps.setLong(1, e.getValue());
          ps.setLong(2, e.getKey());
          ps.addBatch();
        }
        ps.executeBatch();
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
      return null;
    });
  }

  private List<Article> query(String sql, Object... params) {
    return run("query articles", c -> {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < params.length; i++) {
          ps.setObject(i + 1, params[i]);
        }
        List<Article> list = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            list.add(new Article(rs.getLong(1), Section.bySlug(rs.getString(2)).orElseThrow(), rs.getString(3),
                rs.getString(4), Instant.ofEpochMilli(rs.getLong(5)), Instant.ofEpochMilli(rs.getLong(6)), rs.getLong(7)));
          }
        }
        return list;
      }
    });
  }

  private interface Work<T> {
    T on(Connection c) throws SQLException;
  }

  private <T> T run(String what, Work<T> work) {
    try (Connection c = pool.getConnection()) {
      return work.on(c);
    } catch (SQLException e) {
      throw new IllegalStateException("database: could not " + what + ": " + e.getMessage(), e);
    }
  }

  /** Drops the in-memory database and closes the pool. */
  @Override
  public void close() {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("SHUTDOWN");
    } catch (SQLException e) {
      // already gone: nothing to free
    }
    pool.dispose();
  }
}
