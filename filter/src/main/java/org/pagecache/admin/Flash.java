package org.pagecache.admin;

import java.io.Serializable;

/**
 * The message shown once after a form action (POST, redirect, GET): kept in the HttpSession
 * between the redirect and the page, then removed. {@code handler} marks the row it concerns.
 */
record Flash(boolean error, String text, String handler) implements Serializable {
  static final String SESSION_ATTRIBUTE = Flash.class.getName();

  static Flash done(String text, String handler) {
    return new Flash(false, text, handler);
  }

  static Flash failed(String text) {
    return new Flash(true, text, null);
  }
}
