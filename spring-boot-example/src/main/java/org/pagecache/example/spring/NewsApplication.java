package org.pagecache.example.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small news site cached by PageCache: add the starter, set {@code pagecache.memcached.servers},
 * annotate the controller methods whose pages may be shared ({@link ArticleController}).
 *
 * <p>Run it from an IDE with memcached on 127.0.0.1:11211 and {@code EXAMPLE_OPS_PASSWORD} set, or run its test
 * ({@code NewsApplicationTest}), which starts its own memcached.
 */
@SpringBootApplication
public class NewsApplication {
  public static void main(String[] args) {
    SpringApplication.run(NewsApplication.class, args);
  }
}
