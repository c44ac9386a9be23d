/**
 * The engine of PageCache: not API. Its types are public only because the library's packages
 * reach each other (as OkHttp's {@code okhttp3.internal} and Caffeine's package-private engine
 * do); they may change in any release without notice, and the javadoc leaves them out.
 *
 * <ul>
 *   <li>{@code capture}: the response wrapper, what may be stored, how a response was served;
 *   <li>{@code key}: page keys, request cookies and forwarded headers;
 *   <li>{@code freshness}: FRESH / STALE / ABSENT, update tokens, tag versions, the rebuild lock;
 *   <li>{@code near}: the near cache and the in-JVM waiting list;
 *   <li>{@code store}: the stored page, its codec, the circuit breaker;
 *   <li>{@code counters}: placeholders, visitor ids, counter names;
 *   <li>{@code stats}, {@code admin}, {@code json}, {@code html}, {@code config}: statistics, the
 *       admin page and API, and small writers and parsers.
 * </ul>
 * The API: {@code org.pagecache} (the filter, {@code PageCache}, its configuration and policy,
 * the admin and counters servlets), {@code org.pagecache.counters} (standalone {@code Counters}),
 * {@code org.pagecache.store} (the {@code Store} a standalone {@code Counters} or a custom store
 * needs) and {@code org.pagecache.metrics} (Micrometer).
 */
package org.pagecache.internal;
