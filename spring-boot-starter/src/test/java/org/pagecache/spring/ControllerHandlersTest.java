package org.pagecache.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Start-up checks of the annotations, in an application context without a server. */
class ControllerHandlersTest {
  private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BootLine.springMvc()))
      .withConfiguration(AutoConfigurations.of(PageCacheAutoConfiguration.class));

  @RestController
  static class TwoPolicies {
    @GetMapping("/one")
    @CachedPage(handler = "news", ttl = "1m")
    String one() {
      return "";
    }

    @GetMapping("/two")
    @CachedPage(handler = "news", ttl = "2m")
    String two() {
      return "";
    }
  }

  @RestController
  static class BadName {
    @GetMapping("/x")
    @CachedPage(handler = "news page")
    String x() {
      return "";
    }
  }

  @RestController
  static class SharedHandler {
    @GetMapping("/list")
    @CachedPage(handler = "news", ttl = "1m")
    String list() {
      return "";
    }

    @GetMapping("/item")
    @CachedPage(handler = "news", ttl = "1m")
    String item() {
      return "";
    }
  }

  @Test
  void twoMethodsGivingOneHandlerDifferentPoliciesFailStartUpNamingBoth() {
    runner.withUserConfiguration(TwoPolicies.class).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .hasMessageContaining("@CachedPage(handler = \"news\")")
          .hasMessageContaining("TwoPolicies.one").hasMessageContaining("TwoPolicies.two");
    });
  }

  @Test
  void anInvalidHandlerNameFailsStartUpNamingTheMethod() {
    runner.withUserConfiguration(BadName.class).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .hasMessageContaining("@CachedPage(handler = \"news page\") on BadName.x");
    });
  }

  @Test
  void methodsMayShareAHandlerWithTheSamePolicy() {
    runner.withUserConfiguration(SharedHandler.class).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ControllerHandlers.class).policies()).containsEntry("news", "enabled=true, ttl=1m, vary=Accept");
    });
  }

  @Test
  void unannotatedMethodsAreCachedOnlyWhenAskedTo() {
    runner.withUserConfiguration(BadNameFree.class).run(context ->
        assertThat(context.getBean(ControllerHandlers.class).policies()).isEmpty());
    runner.withUserConfiguration(BadNameFree.class).withPropertyValues("pagecache.unannotated=cache").run(context ->
        assertThat(context.getBean(ControllerHandlers.class).policies()).containsEntry("BadNameFree.plain", "enabled=true, vary=Accept"));
  }

  @RestController
  static class BadNameFree {
    @GetMapping("/plain")
    String plain() {
      return "";
    }
  }

  @RestController
  static class Things {
    @GetMapping("/things/{id}")
    String show(@PathVariable String id) {
      return "";
    }

    @GetMapping("/things/{id}/edit")
    String editForm(@PathVariable String id) {
      return "";
    }

    @PostMapping("/things/{id}/edit")
    String save(@PathVariable String id) {
      return "";
    }

    @GetMapping(value = "/things/{id}/data", produces = {"text/html", "application/json"})
    @CachedPage(handler = "thingData")
    String data(@PathVariable String id) {
      return "";
    }
  }

  @Test
  void underUnannotatedCacheAnEditFormIsNotCached() {
    runner.withUserConfiguration(Things.class).withPropertyValues("pagecache.unannotated=cache").run(context -> {
      ControllerHandlers h = context.getBean(ControllerHandlers.class);
      assertThat(h.policies()).containsKey("Things.show").doesNotContainKey("Things.editForm");
      assertThat(h.forms()).containsExactly("Things.editForm");
    });
  }

  @Test
  void methodsAnsweringByAcceptVaryOnItAndViewsDeclareItHarmless() {
    runner.withUserConfiguration(Things.class, Pages.class).withPropertyValues("pagecache.unannotated=cache").run(context -> {
      ControllerHandlers h = context.getBean(ControllerHandlers.class);
      assertThat(h.policies().get("thingData")).as("two produces types").isEqualTo("enabled=true, vary=Accept");
      assertThat(h.policies().get("Things.show")).as("@RestController").isEqualTo("enabled=true, vary=Accept");
      assertThat(h.policies().get("Pages.view")).as("a view").isEqualTo("enabled=true, harmless=accept");
      assertThat(h.policies().get("Pages.json")).as("one produces type").isEqualTo("enabled=true, harmless=accept");
    });
  }

  @org.springframework.stereotype.Controller
  static class Pages {
    @GetMapping("/view")
    String view() {
      return "view";
    }

    @GetMapping(value = "/json", produces = "application/json")
    @org.springframework.web.bind.annotation.ResponseBody
    String json() {
      return "{}";
    }
  }

  @RestController
  static class BadTemplate {
    @GetMapping("/owners/{ownerId}")
    @CachedPage(tags = "owner:{id}")
    String owner(@PathVariable String ownerId) {
      return "";
    }
  }

  @RestController
  static class UnknownRefreshTarget {
    @PostMapping("/owners/{ownerId}")
    @RefreshesPages(handlers = "ownerLst")
    String save(@PathVariable String ownerId) {
      return "";
    }
  }

  @Test
  void aTagVariableTheMappingLacksFailsStartUpNamingTheMethod() {
    runner.withUserConfiguration(BadTemplate.class).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .hasMessageContaining("@CachedPage(tags = \"owner:{id}\") on BadTemplate.owner: its mapping has no URI variable {id}");
    });
  }

  @Test
  void aRefreshOfAnUnknownHandlerFailsStartUpNamingTheMethod() {
    runner.withUserConfiguration(UnknownRefreshTarget.class).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .hasMessageContaining("@RefreshesPages(handlers = \"ownerLst\") on UnknownRefreshTarget.save");
    });
  }

  @Test
  void aMappingIsRankedInServletFormAsItMatchedThePath() {
    assertThat(ControllerHandlers.servletForm("/account/**", "/account/x.css")).isEqualTo("/account/*");
    assertThat(ControllerHandlers.servletForm("/account/**", "/account")).isEqualTo("/account/*");
    assertThat(ControllerHandlers.servletForm("/owners/{id}/**", "/owners/7/x.css")).isEqualTo("/owners/7/*");
    assertThat(ControllerHandlers.servletForm("/docs/{*rest}", "/docs/a/b.css")).isEqualTo("/docs/*");
    assertThat(ControllerHandlers.servletForm("/owners/{id}", "/owners/x.css")).isEqualTo("/owners/x.css");
    assertThat(ControllerHandlers.servletForm("/files/*", "/files/x.css")).isEqualTo("/files/x.css");
    assertThat(ControllerHandlers.servletForm("/", "/")).isEqualTo("");
    assertThat(ControllerHandlers.servletForm("/**", "/x.css")).isEqualTo("/");
    assertThat(ControllerHandlers.servletForm("/{*path}", "/a/x.css")).isEqualTo("/");
    assertThat(ControllerHandlers.servletForm("/**/*.css", "/a/x.css")).isEqualTo("*.css");
  }
}
