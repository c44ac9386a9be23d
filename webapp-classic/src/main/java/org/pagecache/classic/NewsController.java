package org.pagecache.classic;

import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;

/**
 * A small news site: a home page, articles, a comment form that posts and redirects, a page that
 * fails. Every page is a JSP view (a forward); an unknown article is Spring's 404 (a
 * {@code sendError} the container turns into its error page).
 */
@Controller
public class NewsController {
  private final Newsroom newsroom = Newsroom.INSTANCE;

  @GetMapping("/")
  public String home(Model model) {
    model.addAttribute("articles", newsroom.articles());
    return "home";
  }

  @GetMapping("/news/{id}")
  public String article(@PathVariable("id") int id, Model model) {
    Newsroom.Article article = newsroom.article(id);
    if (article == null) {
      throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no article " + id);
    }
    model.addAttribute("article", article);
    model.addAttribute("comments", newsroom.comments(id));
    return "article";
  }

  /** The classic post/redirect/get: the comment is kept and the reader sent back to the article. */
  @PostMapping("/news/{id}/comments")
  public String comment(@PathVariable("id") int id, @RequestParam("text") String text) {
    if (newsroom.article(id) == null) {
      throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no article " + id);
    }
    newsroom.comment(id, text);
    return "redirect:/news/" + id;
  }

  /** An old address that moved: a redirect answered by the controller. */
  @GetMapping("/latest")
  public String latest() {
    List<Newsroom.Article> all = newsroom.articles();
    return "redirect:/news/" + all.get(all.size() - 1).id();
  }

  @GetMapping("/broken")
  public String broken() {
    throw new IllegalStateException("the newsroom's database is down");
  }
}
