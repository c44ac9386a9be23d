package org.pagecache.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.bind.annotation.GetMapping;
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
      assertThat(context.getBean(ControllerHandlers.class).policies()).containsEntry("news", "enabled=true, ttl=1m");
    });
  }

  @Test
  void unannotatedMethodsAreCachedOnlyWhenAskedTo() {
    runner.withUserConfiguration(BadNameFree.class).run(context ->
        assertThat(context.getBean(ControllerHandlers.class).policies()).isEmpty());
    runner.withUserConfiguration(BadNameFree.class).withPropertyValues("pagecache.unannotated=cache").run(context ->
        assertThat(context.getBean(ControllerHandlers.class).policies()).containsEntry("BadNameFree.plain", "enabled=true"));
  }

  @RestController
  static class BadNameFree {
    @GetMapping("/plain")
    String plain() {
      return "";
    }
  }
}
