package org.pagecache.internal.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.store.StoredPage;

/** What a request waiting for another's build does next, from plain values: no memcached, no threads. */
class WaitingChoiceTest {
  private static final long BUILT = 1_000_000;

  private static StoredPage page(long builtAt) {
    return new StoredPage(200, List.of(), new byte[0], false, "e", builtAt, builtAt + 60_000, 50, 0, List.of(),
        List.of(), false, List.of(), null);
  }

  private static final StoredPage REFUSED = StoredPage.uncacheable("set-cookie", BUILT + 5, BUILT + 10_000);

  @Test
  void aWaiterWokenByTimeoutBuildsWithoutTheLock() {
    assertEquals(WaitingChoice.BUILD_WITHOUT_LOCK, WaitingChoice.afterWakeUp(true, null, false));
  }

  @Test
  void aWaiterGivenItsVariantServesIt() {
    assertEquals(WaitingChoice.SERVE, WaitingChoice.afterWakeUp(false, page(BUILT), true));
  }

  @Test
  void aWaiterGivenAnotherVariantOrNothingFindsItsOwnWay() {
    assertEquals(WaitingChoice.FIND_OWN_WAY, WaitingChoice.afterWakeUp(false, page(BUILT), false));
    assertEquals(WaitingChoice.FIND_OWN_WAY, WaitingChoice.afterWakeUp(false, null, false));
  }

  @Test
  void aWaiterToldTheBuildWasRefusedGoesTheRefusedWay() {
    assertEquals(WaitingChoice.AFTER_REFUSAL, WaitingChoice.afterWakeUp(false, REFUSED, true));
  }

  @Test
  void aPollThatFindsANewPageOfItsVariantServesIt() {
    assertEquals(WaitingChoice.SERVE, WaitingChoice.afterPoll(page(BUILT + 1), null, true, true));
    assertEquals(WaitingChoice.SERVE, WaitingChoice.afterPoll(page(BUILT + 1), page(BUILT), true, false));
  }

  @Test
  void aPollThatFindsOnlyWhatTheLookupFoundKeepsWaitingWhileTheLockIsHeld() {
    assertEquals(WaitingChoice.KEEP_WAITING, WaitingChoice.afterPoll(page(BUILT), page(BUILT), true, true));
    assertEquals(WaitingChoice.KEEP_WAITING, WaitingChoice.afterPoll(null, null, false, true));
  }

  @Test
  void aPollThatFindsTheLockGoneWithoutAPageTakesOver() {
    assertEquals(WaitingChoice.TAKE_OVER, WaitingChoice.afterPoll(null, null, false, false));
    assertEquals(WaitingChoice.TAKE_OVER, WaitingChoice.afterPoll(page(BUILT), page(BUILT), true, false));
    assertEquals(WaitingChoice.TAKE_OVER, WaitingChoice.afterPoll(page(BUILT + 1), null, false, false),
        "another variant was stored: this one still has to be built");
  }

  @Test
  void aPollThatFindsANewRefusalMarkerGoesTheRefusedWay() {
    assertEquals(WaitingChoice.AFTER_REFUSAL, WaitingChoice.afterPoll(REFUSED, page(BUILT), true, true));
  }
}
