package org.pagecache.admin;

/**
 * A request the admin servlet refuses, with the status and the message the caller sees (as
 * {@code {"error":"..."}} on the API, as a page otherwise). Thrown from anywhere in the request;
 * {@link AdminEndpoint} renders it, so no step has to know how errors are shown.
 */
final class HttpError extends RuntimeException {
  final int status;
  /** The Allow header of a 405, null otherwise. */
  final String allow;

  private HttpError(int status, String message, String allow) {
    super(message, null, false, false);
    this.status = status;
    this.allow = allow;
  }

  static HttpError of(int status, String message) {
    return new HttpError(status, message, null);
  }

  static HttpError methodNotAllowed(String method, String allow) {
    return new HttpError(405, "method " + method + " is not allowed here; use " + allow, allow);
  }
}
