package org.pagecache.internal.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The names a response varies on, and the headers of its variant key. */
class VaryRecordTest {
  @Test
  void namesAreLowerCasedWithoutDuplicatesThePolicysOrAcceptEncoding() {
    assertEquals(List.of("x-foo", "accept-language"),
        VaryRecord.names(List.of("X-Foo, Accept-Encoding", "accept-language,x-foo", "Cookie"), List.of("cookie")));
    assertEquals(List.of(), VaryRecord.names(List.of("*"), List.of()));
  }

  @Test
  void aVariantKeyHasThePolicysHeadersThenTheResponsesSorted() {
    assertEquals(List.of("cookie", "a", "b"), VaryRecord.keyHeaders(List.of("cookie"), List.of("b", "a", "cookie")));
  }
}
