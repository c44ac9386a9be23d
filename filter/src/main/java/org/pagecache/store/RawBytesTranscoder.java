package org.pagecache.store;

import net.rubyeye.xmemcached.transcoders.CachedData;
import net.rubyeye.xmemcached.transcoders.CompressionMode;
import net.rubyeye.xmemcached.transcoders.Transcoder;

/**
 * Stores {@code byte[]} exactly as given (flag 0) and hands back whatever bytes memcached holds.
 *
 * <p>Why not xmemcached's default {@code SerializingTranscoder}: it tags values with its own
 * flags and may compress or Java-serialize them, so counters written by {@code incr} (plain
 * decimal ASCII) and pages written here would need different decoders. Decoding never throws,
 * because an exception in a transcoder fails a whole multi-get; recognising bad bytes is the
 * page codec's job.
 */
final class RawBytesTranscoder implements Transcoder<byte[]> {
  static final RawBytesTranscoder INSTANCE = new RawBytesTranscoder();

  private static final int FLAGS = 0;

  private RawBytesTranscoder() {}

  @Override
  public CachedData encode(byte[] value) {
    // Sizes are checked by Values.check before we get here; CachedData would throw above 1 MiB.
    return new CachedData(FLAGS, value);
  }

  @Override
  public byte[] decode(CachedData data) {
    byte[] bytes = data.getData();
    return bytes == null ? new byte[0] : bytes;
  }

  // The knobs below belong to serializing transcoders; raw bytes have nothing to tune.

  @Override
  public void setPrimitiveAsString(boolean primitiveAsString) {}

  @Override
  public void setPackZeros(boolean packZeros) {}

  @Override
  public void setCompressionThreshold(int threshold) {}

  @Override
  public boolean isPrimitiveAsString() {
    return false;
  }

  @Override
  public boolean isPackZeros() {
    return false;
  }

  @Override
  public void setCompressionMode(CompressionMode mode) {}
}
