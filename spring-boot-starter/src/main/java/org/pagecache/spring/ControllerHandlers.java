package org.pagecache.spring;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpEntity;
import org.springframework.http.server.PathContainer;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.method.HandlerMethod;
import org.pagecache.PageCache;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The PageCache handler of every Spring MVC controller method, and the policies they make.
 *
 * <p>Every request of a Spring MVC application goes through one {@code DispatcherServlet}, so the
 * filter's default (the servlet's name) would make the whole site one handler. This names the
 * handler after the controller method that will serve the request, found with the application's
 * own {@link RequestMappingHandlerMapping} before the page is looked up ({@link #nameFor}).
 */
final class ControllerHandlers {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,64}");

  private final RequestMappingHandlerMapping mapping;
  /** By controller type and method: two controllers inheriting one mapped method are two handlers. */
  private final Map<Target, String> names = new HashMap<>();
  private final Map<RequestMappingInfo, String> byInfo = new LinkedHashMap<>();
  private final Map<String, String> policies = new LinkedHashMap<>();
  /** URI template variables every mapping of a handler has (what its tag templates may use). */
  private final Map<String, Set<String>> variables = new HashMap<>();
  /** Handlers named by {@link RefreshesPages#handlers()}, with the method naming them (checked once policies are known). */
  private final Map<String, String> refreshTargets = new LinkedHashMap<>();
  /** Unannotated GET methods left out under {@code unannotated=cache}: their URL also takes a write (an edit form). */
  private final Set<String> forms = new TreeSet<>();

  /**
   * @param cacheUnannotated {@code pagecache.unannotated=cache}: methods without {@link CachedPage}
   *     are cached too, except edit forms (a GET whose path a POST, PUT, PATCH or DELETE method also maps)
   * @throws IllegalArgumentException naming the method, when an annotation is invalid or two
   *     methods give one handler different policies
   */
  ControllerHandlers(RequestMappingHandlerMapping mapping, boolean cacheUnannotated) {
    this.mapping = mapping;
    Map<String, String> declaredBy = new HashMap<>();
    Set<String> writePaths = writePaths(mapping);
    for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mapping.getHandlerMethods().entrySet()) {
      HandlerMethod hm = e.getValue();
      RequestMappingInfo info = e.getKey();
      String where = hm.getBeanType().getSimpleName() + "." + hm.getMethod().getName();
      CachedPage a = annotation(hm);
      String name = a != null && !a.handler().isEmpty() ? a.handler() : defaultName(hm);
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("@CachedPage(handler = \"" + name + "\") on " + where
            + ": a handler name must be 1 to 64 characters of A-Z a-z 0-9 _ . -");
      }
      names.put(Target.of(hm), name);
      byInfo.put(info, name);
      Set<String> vars = variables(info);
      variables.merge(name, vars, (x, y) -> {
        Set<String> both = new TreeSet<>(x);
        both.retainAll(y);
        return both;
      });
      checkTemplates(where, "@CachedPage(tags", a != null ? a.tags() : new String[0], vars);
      RefreshesPages r = AnnotatedElementUtils.findMergedAnnotation(hm.getMethod(), RefreshesPages.class);
      if (r != null) {
        checkTemplates(where, "@RefreshesPages(tags", r.tags(), vars);
        for (String target : r.handlers()) {
          refreshTargets.putIfAbsent(target, where);
        }
      }
      boolean form = a == null && cacheUnannotated && isForm(info, writePaths);
      if (form) {
        forms.add(name);
      }
      String spec = a != null ? spec(a, hm, info) : cacheUnannotated && !form ? negotiation(hm, info, "enabled=true", new String[0]) : null;
      if (spec == null) {
        continue;
      }
      String before = policies.putIfAbsent(name, spec);
      if (before != null && !before.equals(spec)) {
        throw new IllegalArgumentException("@CachedPage(handler = \"" + name + "\"): " + declaredBy.get(name)
            + " gives it '" + before + "' but " + where + " gives it '" + spec
            + "'; give both methods the same policy, or different handler names");
      }
      declaredBy.putIfAbsent(name, where);
    }
  }

  private static CachedPage annotation(HandlerMethod hm) {
    CachedPage onMethod = AnnotatedElementUtils.findMergedAnnotation(hm.getMethod(), CachedPage.class);
    return onMethod != null ? onMethod : AnnotatedElementUtils.findMergedAnnotation(hm.getBeanType(), CachedPage.class);
  }

  /** {@code ControllerClass.method}, kept to the characters and length a handler name allows. */
  static String defaultName(HandlerMethod hm) {
    String name = (hm.getBeanType().getSimpleName() + "." + hm.getMethod().getName()).replaceAll("[^A-Za-z0-9_.\\-]", "_");
    return name.length() <= 64 ? name : name.substring(name.length() - 64);
  }

  private static String spec(CachedPage a, HandlerMethod hm, RequestMappingInfo info) {
    String spec = "enabled=true";
    if (!a.ttl().isBlank()) {
      spec += ", ttl=" + a.ttl().trim();
    }
    if (!a.grace().isBlank()) {
      spec += ", grace=" + a.grace().trim();
    }
    return PolicyText.join(negotiation(hm, info, spec, a.vary()), a.spec().trim());
  }

  /**
   * What Spring MVC's content negotiation means for the page's key. Spring MVC reads {@code Accept}
   * on every request; whether the page depends on it is a property of the method. A view (a
   * template name, a {@code ModelAndView}) renders one type, and so does a method that declares
   * one {@code produces} type: {@code Accept} is declared harmless (no warning, not in the key). A
   * method whose return value message converters write ({@code @ResponseBody},
   * {@code @RestController}, {@code ResponseEntity}) without one declared type, or that declares
   * several, answers by {@code Accept} (JSON or XML, {@code text/plain} or {@code text/html}): it is
   * keyed on it. Methods of one URL split by {@code produces} are separate handlers already.
   */
  private static String negotiation(HandlerMethod hm, RequestMappingInfo info, String spec, String[] vary) {
    int declared = info.getProducesCondition().getProducibleMediaTypes().size();
    boolean negotiates = declared > 1 || (declared == 0 && writesBody(hm));
    Set<String> varied = new LinkedHashSet<>(List.of(vary));
    // vary=format keys the negotiated type already (one page per format, not per Accept value)
    boolean byFormat = varied.stream().anyMatch(v -> v.equalsIgnoreCase("format"));
    if (negotiates && !byFormat) {
      varied.add("Accept");
    }
    return spec + (varied.isEmpty() ? "" : ", vary=" + String.join("|", varied)) + (negotiates ? "" : ", harmless=accept");
  }

  /** True when message converters write the return value (their choice follows {@code Accept}). */
  private static boolean writesBody(HandlerMethod hm) {
    return hm.hasMethodAnnotation(ResponseBody.class)
        || AnnotatedElementUtils.hasAnnotation(hm.getBeanType(), ResponseBody.class)
        || HttpEntity.class.isAssignableFrom(hm.getReturnType().getParameterType());
  }

  /** Path patterns a POST, PUT, PATCH or DELETE method maps. */
  private static Set<String> writePaths(RequestMappingHandlerMapping mapping) {
    Set<String> paths = new HashSet<>();
    for (RequestMappingInfo info : mapping.getHandlerMethods().keySet()) {
      Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
      if (methods.stream().anyMatch(m -> m == RequestMethod.POST || m == RequestMethod.PUT
          || m == RequestMethod.PATCH || m == RequestMethod.DELETE)) {
        paths.addAll(info.getPatternValues());
      }
    }
    return paths;
  }

  /** A GET-only mapping of a path a write also maps: the form that write is sent from. */
  private static boolean isForm(RequestMappingInfo info, Set<String> writePaths) {
    Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
    return methods.contains(RequestMethod.GET) && methods.stream().allMatch(m -> m == RequestMethod.GET || m == RequestMethod.HEAD)
        && info.getPatternValues().stream().anyMatch(writePaths::contains);
  }

  private static Set<String> variables(RequestMappingInfo info) {
    Set<String> common = null;
    for (String pattern : info.getPatternValues()) {
      Set<String> vars = TagTemplates.variables(pattern);
      if (common == null) {
        common = new TreeSet<>(vars);
      } else {
        common.retainAll(vars);
      }
    }
    return common == null ? Set.of() : common;
  }

  private static void checkTemplates(String where, String what, String[] templates, Set<String> vars) {
    for (String t : templates) {
      for (String v : TagTemplates.variables(t)) {
        if (!vars.contains(v)) {
          throw new IllegalArgumentException(what + " = \"" + t + "\") on " + where + ": its mapping has no URI variable {"
              + v + "}; the variables are " + vars);
        }
      }
    }
  }

  /** The handler of a controller method, null for a method no mapping serves. */
  String nameOf(HandlerMethod hm) {
    return names.get(Target.of(hm));
  }

  /** The URI template variables every mapping of the handler has; null for a name no controller method has. */
  Set<String> variablesOf(String handler) {
    return variables.get(handler);
  }

  /** Handlers named by {@link RefreshesPages#handlers()}, each with a method naming it. */
  Map<String, String> refreshTargets() {
    return refreshTargets;
  }

  /** Unannotated GET methods not cached under {@code unannotated=cache} because they are edit forms. */
  Set<String> forms() {
    return forms;
  }

  /** The handler names of all controller methods, cached or not. */
  Collection<String> names() {
    return new TreeSet<>(names.values());
  }

  /** Policies of the cached handlers, name to spec (for {@link PolicyText#merge}). */
  Map<String, String> policies() {
    return policies;
  }

  /**
   * A controller method's handler and the pattern by which it serves a request, in servlet-mapping
   * form ({@link PageCache#HANDLER_PATTERN_ATTRIBUTE}): a policy's {@code paths=} claims the request
   * only where at least as specific.
   */
  record Served(String handler, String pattern) {}

  /**
   * The handler of the controller method that will serve this request, or null when no
   * controller method will (static resources, Actuator, errors: the filter's default applies).
   * The lookup runs on a view of the request whose attribute writes are kept apart, so the
   * DispatcherServlet later finds the request as the container gave it.
   */
  Served nameFor(HttpServletRequest request) {
    AttributesKeptApart probe = new AttributesKeptApart(request);
    try {
      if (mapping.usesPathPatterns()) {
        ServletRequestPathUtils.parseAndCache(probe);
      }
      HandlerExecutionChain chain = mapping.getHandler(probe);
      if (chain != null && chain.getHandler() instanceof HandlerMethod hm) {
        String name = names.get(Target.of(hm));
        Object best = probe.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        String path = (request.getServletPath() == null ? "" : request.getServletPath())
            + (request.getPathInfo() == null ? "" : request.getPathInfo());
        return name == null ? null : new Served(name, servletForm(best == null ? null : best.toString(), path));
      }
      return null;
    } catch (Exception e) {
      return null; // no match (e.g. 406): the DispatcherServlet answers; the filter's default policy applies
    }
  }

  /**
   * A Spring MVC path pattern, as it matched {@code path}, in servlet-mapping form so the filter can
   * rank {@code paths=} against it as the Servlet spec ranks mappings. A pattern that matches a fixed
   * number of segments ({@code /owners/{id}}, {@code /files/*}) serves only URLs of that shape: exact.
   * One that matches the rest of the path ({@code /account/**}, {@code /docs/{*rest}}) is a prefix of
   * the segments before it, as the path spells them; from the root it is the catch-all ({@code /}), or
   * an extension mapping when its last segment is {@code *.ext} ({@code /**}{@code /*.css}).
   */
  static String servletForm(String pattern, String path) {
    String p = pattern == null ? "/**" : pattern;
    List<String> segments = List.of(p.replaceFirst("^/", "").split("/", -1));
    int rest = -1;
    for (int i = 0; i < segments.size() && rest < 0; i++) {
      String segment = segments.get(i);
      if (segment.equals("**") || segment.matches("\\{\\*[^}]*}")) {
        rest = i;
      }
    }
    if (rest < 0) {
      return path.equals("/") || path.isEmpty() ? "" : path; // exact: this URL's shape only
    }
    if (rest == 0) {
      String last = segments.get(segments.size() - 1);
      return last.matches("\\*\\.[^*/{}]+") ? last : "/";
    }
    List<String> actual = List.of(path.replaceFirst("^/", "").split("/", -1));
    return "/" + String.join("/", actual.subList(0, Math.min(rest, actual.size()))) + "/*";
  }

  /**
   * The handler of a GET of this path (for {@code evict(url)}): the most specific matching
   * pattern of a controller method. Conditions on parameters, headers or media types are not
   * considered (there is no request), so give such pages their own tags.
   */
  String handlerForPath(String path) {
    return bestForPath(path).map(Map.Entry::getValue).orElse(null);
  }

  /** The pattern by which {@link #handlerForPath} serves the path, in servlet-mapping form; null when none. */
  String patternForPath(String path) {
    return bestForPath(path).map(e -> servletForm(e.getKey().getPatternString(), path)).orElse(null);
  }

  private Optional<Map.Entry<PathPattern, String>> bestForPath(String path) {
    PathContainer container = PathContainer.parsePath(path);
    return byInfo.entrySet().stream()
        .filter(e -> allowsGet(e.getKey()) && e.getKey().getPathPatternsCondition() != null)
        .flatMap(e -> e.getKey().getPathPatternsCondition().getPatterns().stream()
            .filter(p -> p.matches(container))
            .map(p -> Map.entry(p, e.getValue())))
        .min(Comparator.comparing(Map.Entry::getKey, PathPattern.SPECIFICITY_COMPARATOR));
  }

  private static boolean allowsGet(RequestMappingInfo info) {
    var methods = info.getMethodsCondition().getMethods();
    return methods.isEmpty() || methods.contains(RequestMethod.GET);
  }

  /** A controller method as the mapping serves it: the bean's type and the (possibly inherited) method. */
  private record Target(Class<?> type, Method method) {
    static Target of(HandlerMethod hm) {
      return new Target(hm.getBeanType(), hm.getMethod());
    }
  }
}
