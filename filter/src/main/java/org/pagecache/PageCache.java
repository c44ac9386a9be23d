package org.pagecache;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.pagecache.counters.Counters;
import org.pagecache.internal.capture.BuildThread;
import org.pagecache.internal.fragments.Fragments;
import org.pagecache.internal.fragments.KeptFragment;
import org.pagecache.internal.fragments.Placeholders;
import org.pagecache.internal.text.TagLists;
import org.pagecache.stats.ClusterStatus;
import org.pagecache.stats.Eviction;
import org.pagecache.stats.HandlerStats;
import org.pagecache.stats.NearStats;
import org.pagecache.stats.NodeState;
import org.pagecache.stats.Refresh;
import org.pagecache.stats.SiteStats;
import org.pagecache.stats.Stats;
import org.pagecache.stats.TagInvalidation;
import org.pagecache.store.Store;

/**
 * The page cache of one web application: what the filter uses, and what application code calls to
 * refresh a handler, invalidate a tag or evict a page (e.g. from a CMS webhook). One instance per
 * ServletContext, found with {@link #from(ServletContext)}.
 *
 * <pre>
 *   PageCache cache = PageCache.from(servletContext);
 *   cache.refreshHandler("article");          // every article page rebuilds on its next request
 *   cache.invalidateTag("article:42");        // every page showing article 42, whatever its handler
 *
 *   // while building a page:
 *   PageCache.tag(request, "article:42", "section:sport");
 *   PageCache.countView(request, "article:42");
 * </pre>
 */
public final class PageCache implements AutoCloseable {
  /** The ServletContext attribute under which the filter publishes its instance. */
  public static final String CONTEXT_ATTRIBUTE = PageCache.class.getName();
  /**
   * Request attribute (a Long, milliseconds) set on a rebuild that follows a refresh or tag
   * invalidation younger than {@code replica.lag}: read from the primary database, not a replica
   * that may not have the editor's change yet.
   */
  public static final String INVALIDATED_AGO_ATTRIBUTE = "org.pagecache.invalidatedAgoMillis";
  /**
   * Request attribute (a String) naming the request's handler, set by a filter ahead of the
   * PageCacheFilter when one servlet serves many handlers (the Spring Boot starter sets the
   * controller method's handler); without it the servlet's name is the handler. A policy's
   * {@code paths} claim the request from it only where at least as specific as
   * {@link #HANDLER_PATTERN_ATTRIBUTE} (or where the policy {@code overrides} it). The name must be
   * valid (1 to 64 of A-Z a-z 0-9 _ . -) and bounded in number: it keys pages, tokens and metrics.
   */
  public static final String HANDLER_ATTRIBUTE = "org.pagecache.handler";
  /**
   * Request attribute (a String) set with {@link #HANDLER_ATTRIBUTE}: the pattern by which that
   * handler serves the request, in servlet-mapping form ({@code /exact} or {@code ""} for the context
   * root, {@code /prefix/*}, {@code *.ext}, {@code /} for a catch-all). A policy's {@code paths}
   * pattern claims the request only where it is at least as specific (exact, then longest prefix,
   * then extension, then default). Without it a named handler counts as an exact mapping.
   */
  public static final String HANDLER_PATTERN_ATTRIBUTE = "org.pagecache.handler.pattern";
  /**
   * Request attribute (any value) a handler sets on a successful write (POST, PUT, DELETE...) that
   * changes no page, before its response starts: the cache then does not evict the write's URL and
   * {@code Location} (docs/freshness.md, "Writes invalidate"), nor send that eviction to the other
   * clusters. The admin servlet sets it on its own actions; an analytics beacon may too.
   */
  public static final String CHANGES_NO_PAGE_ATTRIBUTE = "org.pagecache.changesNoPage";

  final PageCacheConfig config;
  final Engine engine; // the parts the request path works with
  private final Invalidations invalidations;
  private final Inspection inspection;

  PageCache(PageCacheConfig config) {
    this.config = config;
    this.engine = new Engine(config);
    this.invalidations = new Invalidations(engine, config.namespace);
    this.inspection = new Inspection(engine);
  }

  /** Starts a page cache (connects to memcached, or makes the in-process store). */
  public static PageCache start(PageCacheConfig config) {
    return new PageCache(config);
  }

  /** The instance the PageCacheFilter of this web application published; null if none. */
  public static PageCache from(ServletContext context) {
    return (PageCache) context.getAttribute(CONTEXT_ATTRIBUTE);
  }

  void attach(ServletContext context) {
    invalidations.urlPages.attach(context);
  }

  /**
   * Makes every page of the handler STALE (never flush_all: other handlers keep their pages).
   * Each stale page is rebuilt by one request while the others are served the stale copy.
   *
   * @param handler the handler's name: the servlet's name unless a policy or
   *     {@link #HANDLER_ATTRIBUTE} names it
   * @throws IllegalArgumentException when the name is empty, longer than 200 characters, or holds
   *     control or invisible characters
   * @throws org.pagecache.store.StoreException when memcached could not be written: the refresh
   *     did not happen and must not be reported as done
   */
  public Refresh refreshHandler(String handler) {
    return refreshHandler(handler, "api");
  }

  /** As {@link #refreshHandler(String)}, recording who asked (shown on the admin page). */
  public Refresh refreshHandler(String handler, String by) {
    Refresh refresh = invalidations.refresh(handler, by, knowsHandler(handler));
    engine.edits.refreshed(refresh); // made by a write through the application: rebuilt in the foreground here
    return refresh;
  }

  /**
   * Whether this cache knows the handler: a policy names it, or this server has served its pages.
   * The admin API and the Spring Boot starter's Actuator endpoint refuse to refresh an unknown
   * name (most often a typo) instead of writing a token nobody reads.
   *
   * @throws IllegalArgumentException for a name {@link #refreshHandler(String)} refuses
   */
  public boolean knowsHandler(String handler) {
    Names.checkName("handler", handler);
    return engine.policies.configured(handler) || engine.recorder.seen(handler);
  }

  /**
   * Makes every page carrying the tag STALE, across all handlers. Other JVMs see the invalidation
   * within {@code tag.cache} (default 1s).
   *
   * @throws IllegalArgumentException when the tag is empty, longer than 200 characters, or holds
   *     spaces, commas, control or invisible characters
   * @throws org.pagecache.store.StoreException when memcached could not be written: the tag was
   *     not invalidated
   */
  public TagInvalidation invalidateTag(String tag) {
    Names.checkTag(tag);
    TagInvalidation invalidation = invalidations.tag(tag);
    engine.edits.invalidated(invalidation);
    return invalidation;
  }

  /**
   * Invalidates several tags in one call (each as {@link #invalidateTag}); all are checked before any
   * is written.
   *
   * @throws IllegalArgumentException naming the first invalid tag, or when there is none
   */
  public List<TagInvalidation> invalidateTags(Collection<String> tags) {
    Names.checkTags(tags);
    List<TagInvalidation> done = new LinkedHashSet<>(tags).stream().map(invalidations::tag).toList();
    done.forEach(engine.edits::invalidated);
    return done;
  }

  /**
   * Hard purge, for takedowns: every page carrying one of these tags is never served again, not
   * even stale (grace, stale-while-revalidate, stale-if-error), nor revalidated, nor kept by a near
   * cache; its next request waits for a new build. Pages being built across the purge are never
   * served with their old content either. Other servers' near caches and tag caches see it within
   * {@code tag.cache} (docs/freshness.md, "Hard purge").
   *
   * @throws IllegalArgumentException naming the first invalid tag, or when there is none
   */
  public List<TagInvalidation> purgeTags(Collection<String> tags) {
    Names.checkTags(tags);
    return new LinkedHashSet<>(tags).stream().map(invalidations::purge).toList();
  }

  /**
   * Removes one page, given its absolute URL ({@code https://host/path?query}). The variant for
   * requests without any varied header is removed; use tags for pages that vary.
   *
   * @throws IllegalArgumentException when {@code url} is not an absolute URL
   * @throws org.pagecache.store.StoreException when memcached could not be reached: the page may
   *     still be stored
   */
  public Eviction evict(String url) {
    return invalidations.evict(url);
  }

  /**
   * The tags in a text as editors and CDN headers write them: separated by commas or white space
   * (for {@link #invalidateTags} and {@link #purgeTags} from a form field or parameter); none for
   * {@code null}. The tags are not checked here: those methods do.
   */
  public static List<String> tagList(String text) {
    return TagLists.split(text);
  }

  /** Declares tags for the page being built (call from the handler). */
  public static void tag(ServletRequest request, String... tags) {
    Declared.tags(request).addAll(List.of(tags));
  }

  /** Declares an object whose view counter is incremented on every serve of the page being built. */
  public static void countView(ServletRequest request, String objectKey) {
    Declared.views(request).add(objectKey);
  }

  /**
   * Declares the signed-in visitor's own details for this request: their display name, email,
   * account number... (call before the page's build ends: from a filter before PageCache's, from
   * the handler). A page built for a group ({@code signed-in=roles:} or {@code shared}) whose body
   * shows one of them, as a word, as written or HTML-escaped, is not shared (cause
   * {@code personal-value}): it is the visitor's own. Values shorter than 3 characters (after
   * trimming) are not searched: they are in every page. Values never reach a key, a log or the admin
   * page. For every request at once, use {@link #personalValues}.
   * <pre>
   *   PageCache.personal(request, member.fullName(), member.email());
   * </pre>
   */
  public static void personal(ServletRequest request, String... values) {
    for (String value : values) {
      if (value != null) {
        Declared.personal(request).add(value);
      }
    }
  }

  /**
   * Where the signed-in visitor's own details come from (display name, email...), asked before each
   * of their builds for sharing, on the request's thread: as {@link #personal}, for every request.
   * The Spring Boot starter sets one that reads Spring Security's {@code Authentication}; a source
   * that throws makes the build its visitor's only.
   */
  public void personalValues(Function<HttpServletRequest, ? extends Collection<String>> source) {
    engine.personalValues = source;
  }

  /**
   * True while a signed-in visitor's page is being built for their group on this thread, the time
   * during which {@link #principalRead} counts: cheap, for a thread-local's accessor to ask first.
   */
  public static boolean buildingForGroup() {
    return BuildThread.watching();
  }

  /**
   * Tells the page being built on this thread for a signed-in visitor's group, if any, that the
   * application read the visitor past the request: from a thread-local of its own or of its security
   * framework ("the current user"). The page is then not shared (cause {@code principal-thread-local}),
   * as when the handler reads {@code getUserPrincipal()}. Outside such a build it does nothing.
   * The Spring Boot starter calls it for reads of Spring Security's {@code SecurityContextHolder}.
   */
  public static void principalRead() {
    BuildThread.principalRead();
  }

  /**
   * Renders one fragment of a page for the visitor of {@code request} (the request as the
   * application sees it: its principal, its session). Runs on the request's thread on every serve of
   * a page that shows it; its text goes into the page as it is (escape what you put in it). A
   * renderer that throws or takes longer than {@code fragments.timeout} gives an empty part.
   */
  @FunctionalInterface
  public interface Fragment {
    String render(HttpServletRequest request) throws Exception;
  }

  /**
   * The text a handler writes where fragment {@code name} goes: {@code <!--pagecache:fragment NAME-->}.
   * The stored page keeps it; each serve replaces it with what the fragment's renderer gives for the
   * visitor.
   *
   * @throws IllegalArgumentException when the name is not 1 to 64 of A-Z a-z 0-9 _ . -
   */
  public static String fragment(String name) {
    return Placeholders.fragment(name);
  }

  /** Registers (or replaces) the renderer of fragment {@code name}. */
  public void fragment(String name, Fragment renderer) {
    engine.fragments.register(name, renderer == null ? null : renderer::render);
  }

  /**
   * As {@link #fragment(String, Fragment)}, with the renderer's output kept in memcached for
   * {@code ttl} per value of {@code per} (a user id, a customer group; hashed into the key, null
   * means not kept): a cart summary rendered once a minute per user rather than on every page.
   */
  public void fragment(String name, Duration ttl, Function<HttpServletRequest, String> per, Fragment renderer) {
    if (renderer == null || per == null || ttl == null) {
      throw new IllegalArgumentException("fragment '" + name + "': ttl, per and renderer are required");
    }
    engine.fragments.register(name, new KeptFragment(engine.store, config.namespace, name,
        (int) Math.min(Integer.MAX_VALUE, ttl.toSeconds()), per, renderer::render));
  }

  /**
   * Registers a renderer in a web application before its filter has started, from a
   * ServletContextListener for instance; the filter finds it when it fills the page in.
   */
  public static void fragment(ServletContext context, String name, Fragment renderer) {
    if (renderer == null) {
      throw new IllegalArgumentException("fragment '" + name + "': the renderer is null");
    }
    Fragments.register(context, name, renderer::render);
  }

  /**
   * The application's group of a signed-in visitor, for the policies with {@code signed-in=context}:
   * a customer group, a plan, a locale... computed on the server from the request (its principal).
   * The value is hashed into the page key; a null or a throw sends the request past the cache.
   */
  public void userContext(Function<HttpServletRequest, String> context) {
    engine.userContext = context;
  }

  /** The live view and online counters of this application. */
  public Counters counters() {
    return engine.counters;
  }

  /**
   * What this cache holds and did, now: per-handler counts, the site's figures, the near cache, the
   * memcached nodes and the other clusters, as immutable snapshots ({@link org.pagecache.stats}).
   * The admin page, the metrics and the Actuator endpoint read the cache through it.
   */
  public Inspection inspect() {
    return inspection;
  }

  /** This JVM's per-handler counts now, as {@link Inspection#stats()}. */
  public Stats stats() {
    return inspection.stats();
  }

  /** One handler's counts now, as {@link Inspection#stats(String)}. */
  public HandlerStats stats(String handler) {
    return inspection.stats(handler);
  }

  /** As {@link Inspection#forEachHandler}. */
  public void forEachHandler(Consumer<String> listener) {
    inspection.forEachHandler(listener);
  }

  /** As {@link Inspection#forEachBypassReason}. */
  public void forEachBypassReason(BiConsumer<String, String> listener) {
    inspection.forEachBypassReason(listener);
  }

  /** As {@link Inspection#siteStats}. */
  public Map<String, SiteStats> siteStats(Collection<String> handlers) {
    return inspection.siteStats(handlers);
  }

  /** As {@link Inspection#policies()}. */
  public Collection<CachePolicy> policies() {
    return inspection.policies();
  }

  /** As {@link Inspection#nearStats()}. */
  public NearStats nearStats() {
    return inspection.nearStats();
  }

  /** As {@link Inspection#clusterStatus()}. */
  public ClusterStatus clusterStatus() {
    return inspection.clusterStatus();
  }

  /** As {@link Inspection#nodeStates()}. */
  public List<NodeState> nodeStates() {
    return inspection.nodeStates();
  }

  /** As {@link Inspection#storeDown()}. */
  public boolean storeDown() {
    return inspection.storeDown();
  }

  /**
   * The store this cache uses, behind its circuit breaker: while memcached is considered down
   * ({@link Inspection#storeDown()}) every call throws {@link org.pagecache.store.StoreException} at
   * once instead of waiting for a timeout. It belongs to the cache: {@link #close()} closes it.
   */
  public Store store() {
    return engine.store;
  }

  /** The configuration this cache was started with. */
  public PageCacheConfig config() {
    return config;
  }

  @Override
  public void close() {
    engine.close();
  }

  /**
   * Tells {@link #evict(String)} which handler a path (within the context) belongs to, when the
   * servlet's name is not the handler: an integration that sets {@link #HANDLER_ATTRIBUTE} gives
   * the same naming here. The function returns null for paths it does not know; a policy's
   * {@code paths} claim a path from such a handler only where it {@code overrides} it (the handler
   * counts as an exact mapping).
   */
  public void handlersByPath(Function<String, String> byPath) {
    handlersByPath(byPath, path -> null);
  }

  /**
   * As {@link #handlersByPath(Function)}, with the pattern by which the handler serves a path, in
   * the form of {@link #HANDLER_PATTERN_ATTRIBUTE}: a policy's {@code paths} claim the path where at
   * least as specific.
   */
  public void handlersByPath(Function<String, String> byPath, Function<String, String> patternByPath) {
    invalidations.urlPages.handlersByPath(byPath, patternByPath);
  }
}
