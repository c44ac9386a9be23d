package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.spring.testapp.TestApplication;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.Http;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Tracing on, with a real tracer (Micrometer's SimpleTracer, as Boot's tracing auto-configuration
 * would use Brave's or OpenTelemetry's): each request is a span with its handler and cache status
 * (MISS, then HIT), under the HTTP server's span, with its steps as children.
 * {@code spring.test.observability.auto-configure=true} keeps tracing on in the test, which Spring
 * Boot turns off in tests by default.
 */
@SpringBootTest(classes = {TestApplication.class, TracingTest.Tracing.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"pagecache.namespace=tracing-test", "spring.test.observability.auto-configure=true",
        "management.tracing.sampling.probability=1.0"})
class TracingTest {
  @TestConfiguration(proxyBeanMethods = false)
  static class Tracing {
    @Bean
    SimpleTracer simpleTracer() {
      return new SimpleTracer();
    }
  }

  @Value("${local.server.port}")
  int port;

  @Autowired
  SimpleTracer tracer;

  @Test
  void eachRequestIsASpanWithItsHandlerAndCacheStatus() {
    assertEquals("MISS", Http.get(uri("/a/traced")).headers().firstValue("X-Cache").orElse(""));
    assertEquals("HIT", Http.get(uri("/a/traced")).headers().firstValue("X-Cache").orElse(""));

    Eventually.assertWithin(Duration.ofSeconds(10), "both requests traced", () -> requestSpans().size() == 2);
    List<SimpleSpan> requests = requestSpans();
    assertEquals(List.of("miss", "hit"), requests.stream().map(s -> s.getTags().get("pagecache.status")).toList());
    for (SimpleSpan request : requests) {
      assertEquals("pagecache alpha", request.getName());
      assertEquals("alpha", request.getTags().get("pagecache.handler"));
      assertEquals("false", request.getTags().get("pagecache.waited"));
      List<String> ancestors = ancestors(request);
      assertTrue(ancestors.stream().anyMatch(name -> name.startsWith("http get")),
          "under the HTTP server's span (and Spring Security's, which runs before the filter): " + ancestors);
    }
    assertEquals(List.of("pagecache lookup", "pagecache build", "pagecache store"), childNames(requests.get(0)));
    assertEquals(List.of("pagecache lookup"), childNames(requests.get(1)));
  }

  @Test
  void anAsyncPageIsOneSpanThatEndsWithItsResponse() {
    Http.get(uri("/slow/teaching")); // the first ASYNC dispatch tells the filter it sees them: that one goes out uncached
    HttpResponse<byte[]> first = Http.get(uri("/slow/traced"));
    assertEquals("MISS", first.headers().firstValue("X-Cache").orElse(""), first.headers().map().toString());
    assertEquals("HIT", Http.get(uri("/slow/traced")).headers().firstValue("X-Cache").orElse(""));

    Eventually.assertWithin(Duration.ofSeconds(10), "the three requests traced", () -> requestSpans("slow").size() == 3);
    assertEquals(List.of("bypass", "miss", "hit"),
        requestSpans("slow").stream().map(s -> s.getTags().get("pagecache.status")).toList(),
        "the Callable's build ended in its ASYNC dispatch, and its span with the response");
  }

  private List<SimpleSpan> requestSpans() {
    return requestSpans("alpha");
  }

  private List<SimpleSpan> requestSpans(String handler) {
    return tracer.getSpans().stream().filter(s -> s.getTags().containsKey("pagecache.status")
        && handler.equals(s.getTags().get("pagecache.handler"))).toList();
  }

  private List<String> ancestors(SimpleSpan span) {
    List<String> names = new java.util.ArrayList<>();
    for (SimpleSpan s = span(span.getParentId()); s != null && names.size() < 20; s = span(s.getParentId())) {
      names.add(s.getName());
    }
    return names;
  }

  private SimpleSpan span(String id) {
    return tracer.getSpans().stream().filter(s -> s.getSpanId().equals(id)).findFirst().orElse(null);
  }

  private List<String> childNames(SimpleSpan parent) {
    return tracer.getSpans().stream().filter(s -> parent.getSpanId().equals(s.getParentId()))
        .map(SimpleSpan::getName).toList();
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }
}
