package org.pagecache.examples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What an example printed: passed as its PrintStream, echoed to the test's log as it is written. */
final class Output {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  final PrintStream stream = new PrintStream(new TeeStream(bytes), true, StandardCharsets.UTF_8);

  String text() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static final class TeeStream extends java.io.OutputStream {
    private final ByteArrayOutputStream copy;

    TeeStream(ByteArrayOutputStream copy) {
      this.copy = copy;
    }

    @Override
    public void write(int b) {
      copy.write(b);
      System.out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      copy.write(b, off, len);
      System.out.write(b, off, len);
    }
  }
}
