package org.pagecache.internal.capture;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;
import java.io.Reader;

/**
 * A request body as a build for sharing reads it: every read that returns data is recorded
 * ({@link HeaderReads#readBody()}), so a page built from a body (a GET whose body the headers did
 * not announce, HTTP/2 DATA frames that arrived after the lookup) is never stored. Reading the end
 * of an empty body is not a use.
 */
final class WatchedInput extends ServletInputStream {
  private final ServletInputStream in;
  private final HeaderReads reads;

  WatchedInput(ServletInputStream in, HeaderReads reads) {
    this.in = in;
    this.reads = reads;
  }

  private int seen(int n) {
    if (n > 0) {
      reads.body();
    }
    return n;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      reads.body();
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return seen(in.read(b, off, len));
  }

  @Override
  public int readLine(byte[] b, int off, int len) throws IOException {
    return seen(in.readLine(b, off, len));
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public boolean isFinished() {
    return in.isFinished();
  }

  @Override
  public boolean isReady() {
    return in.isReady();
  }

  @Override
  public void setReadListener(ReadListener listener) {
    in.setReadListener(listener);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /** The reader of the same body, watched alike. */
  static final class WatchedReader extends Reader {
    private final Reader in;
    private final HeaderReads reads;

    WatchedReader(Reader in, HeaderReads reads) {
      this.in = in;
      this.reads = reads;
    }

    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
      int n = in.read(cbuf, off, len);
      if (n > 0) {
        reads.body();
      }
      return n;
    }

    @Override
    public boolean ready() throws IOException {
      return in.ready();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
