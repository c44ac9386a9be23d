package org.pagecache.internal.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class PathParametersTest {
  @Test
  void theParametersOfEverySegmentAreRemovedAsTheContainerMapsThePath() {
    assertEquals("/owners/1", PathParameters.strip("/owners/1;jsessionid=5F2A9C"));
    assertEquals("/owners/1/pets", PathParameters.strip("/owners;a=1/1;b=2;c/pets;jsessionid=X"));
    assertEquals("/a/", PathParameters.strip("/a;x/"));
    assertEquals("/a%3Bb", PathParameters.strip("/a%3Bb"), "an encoded semicolon is data");
    String plain = "/owners/1";
    assertSame(plain, PathParameters.strip(plain));
  }
}
