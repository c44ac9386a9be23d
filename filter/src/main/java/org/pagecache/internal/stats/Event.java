package org.pagecache.internal.stats;

/**
 * What the cache did for a request, with the letter the trace shows for it (after the letters of
 * the HighLoad++ 2008 talk: M miss, L lock, W write, U unlock, H hit, plus S stale, B bypass, E error).
 */
public enum Event {
  HIT('H'), STALE('S'), MISS('M'), LOCK('L'), WRITE('W'), UNLOCK('U'), BYPASS('B'), ERROR('E');

  public final char letter;

  Event(char letter) {
    this.letter = letter;
  }
}
