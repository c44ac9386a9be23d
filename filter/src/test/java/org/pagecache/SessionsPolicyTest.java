package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The policy key {@code sessions=}: anonymous by default, off, allow, and a wrong word named. */
class SessionsPolicyTest {
  private static final CachePolicy DEFAULTS = CachePolicy.defaults("news", Duration.ofMinutes(5), Duration.ZERO);

  @Test
  void anonymousSessionsAreTheDefault() {
    assertTrue(DEFAULTS.anonymousSessions());
    assertFalse(DEFAULTS.allowSessions());
    assertFalse(DEFAULTS.spec().contains("sessions"), DEFAULTS.spec());
  }

  @Test
  void offAndAllowAndTheirSwitchWordsAreAccepted() {
    CachePolicy off = DEFAULTS.with("sessions=off");
    assertFalse(off.anonymousSessions());
    assertFalse(off.allowSessions());
    assertTrue(off.spec().contains("sessions=off"), off.spec());
    assertEquals(off, DEFAULTS.with("sessions=false"));
    CachePolicy allow = DEFAULTS.with("sessions=allow");
    assertTrue(allow.allowSessions());
    assertEquals(allow, DEFAULTS.with("sessions=true"));
    assertEquals(DEFAULTS, off.with("sessions=Anonymous"));
    assertEquals(off, DEFAULTS.with(off.spec()), "the spec reads back");
  }

  @Test
  void aWrongWordIsNamedWithWhatIsAccepted() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DEFAULTS.with("sessions=guests"));
    assertEquals("policies[news].sessions: 'guests' is not accepted; use anonymous (the default), off or allow",
        e.getMessage());
  }
}
