package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pagecache.spring.testapp.TestApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A bad PageCache setting stops start-up with Spring Boot's own failure report, naming it. */
@ExtendWith(OutputCaptureExtension.class)
class PageCacheSettingsFailureAnalyzerTest {
  private static void start(String... properties) {
    assertThrows(Exception.class, () -> new SpringApplicationBuilder(TestApplication.class)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .properties(properties)
        .run().close());
  }

  @Test
  void aBadValueIsReportedAsApplicationFailedToStart(CapturedOutput output) {
    start("pagecache.ttl=5 minutes");
    String report = output.toString();
    assertTrue(report.contains("APPLICATION FAILED TO START"), report);
    assertTrue(report.contains("Description:\n\nPageCache configuration is invalid:"), report);
    assertTrue(report.contains("ttl: '5 minutes' is not a duration"), report);
    assertTrue(report.contains("Correct the PageCache setting named above"), report);
  }

  @Test
  void aMisspeltNameIsReportedTheSameWay(CapturedOutput output) {
    start("pagecache.memcached.server=127.0.0.1:1");
    String report = output.toString();
    assertTrue(report.contains("APPLICATION FAILED TO START"), report);
    assertTrue(report.contains("PageCache could not start: unknown PageCache properties: pagecache.memcached.server"), report);
  }
}
