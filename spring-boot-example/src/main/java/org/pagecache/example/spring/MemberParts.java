package org.pagecache.example.spring;

import java.security.Principal;
import org.pagecache.spring.PageFragment;
import org.springframework.stereotype.Component;
import org.springframework.web.util.HtmlUtils;

/**
 * The parts of a cached page that are the visitor's own, rendered for each of them on every serve
 * (docs/fragments.md): the page keeps a placeholder, this method fills it in.
 */
@Component
public class MemberParts {
  @PageFragment("greeting")
  String greeting(Principal member) {
    return member == null ? "Welcome, guest"
        : "Signed in as " + HtmlUtils.htmlEscape(member.getName());
  }
}
