package org.pagecache.example.spring;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** A page for one visitor: no {@code @CachedPage}, so PageCache never stores it (X-Cache: BYPASS). */
@RestController
public class AccountController {
  @GetMapping(value = "/account", produces = MediaType.TEXT_HTML_VALUE)
  public String account() {
    return "<!DOCTYPE html><title>Your account</title><p>Only yours.</p>";
  }
}
