package org.pagecache.spring;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.Principal;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.pagecache.PageCache;
import org.pagecache.CachePolicy;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationContext;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Registers every {@link PageFragment} method of the application's beans with the {@link PageCache}
 * once the singletons exist, and gives templates the placeholder text: the bean {@code pageFragments},
 * {@code ${@pageFragments.marker('greeting')}} in Thymeleaf.
 */
public final class PageFragments implements SmartInitializingSingleton {
  private final ApplicationContext context;
  private final PageCache cache;

  PageFragments(ApplicationContext context, PageCache cache) {
    this.context = context;
    this.cache = cache;
  }

  /** The text a view writes where fragment {@code name} goes ({@link PageCache#fragment(String)}). */
  public String marker(String name) {
    return PageCache.fragment(name);
  }

  @Override
  public void afterSingletonsInstantiated() {
    Map<String, String> seen = new HashMap<>();
    for (String beanName : context.getBeanNamesForType(Object.class, false, false)) {
      Class<?> type = context.getType(beanName, false);
      if (type == null) {
        continue;
      }
      Class<?> target = AopUtils.isAopProxy(type) ? AopUtils.getTargetClass(type) : type;
      Map<Method, PageFragment> methods;
      try {
        methods = MethodIntrospector.selectMethods(target,
            (MethodIntrospector.MetadataLookup<PageFragment>) m -> AnnotatedElementUtils.findMergedAnnotation(m, PageFragment.class));
      } catch (RuntimeException | LinkageError e) {
        continue; // a type whose methods cannot be read has no fragments
      }
      for (Map.Entry<Method, PageFragment> e : methods.entrySet()) {
        register(beanName, e.getKey(), e.getValue(), seen);
      }
    }
  }

  private void register(String beanName, Method method, PageFragment annotation, Map<String, String> seen) {
    String where = method.getDeclaringClass().getSimpleName() + "." + method.getName();
    String name = annotation.value();
    PageCacheSettingsException.check(() -> {
      PageCache.fragment(name); // checks the name
      String other = seen.putIfAbsent(name, where);
      if (other != null) {
        throw new IllegalArgumentException("@PageFragment(\"" + name + "\") on " + where + ": already on " + other);
      }
      if (method.getReturnType() != String.class) {
        throw new IllegalArgumentException("@PageFragment(\"" + name + "\") on " + where + ": must return String");
      }
      return null;
    });
    Object bean = context.getBean(beanName);
    Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
    ReflectionUtils.makeAccessible(invocable);
    Function<HttpServletRequest, Object>[] args = arguments(invocable, name, where);
    PageCache.Fragment renderer = req -> {
      Object[] values = new Object[args.length];
      for (int i = 0; i < args.length; i++) {
        values[i] = args[i].apply(req);
      }
      try {
        return (String) invocable.invoke(bean, values);
      } catch (InvocationTargetException e) {
        throw e.getCause() instanceof Exception cause ? cause : e;
      }
    };
    if (annotation.ttl().isBlank()) {
      cache.fragment(name, renderer);
    } else {
      java.time.Duration ttl = PageCacheSettingsException.check(() -> {
        try { // the policies' duration syntax (30s, 5m, 1h), read by the filter's own parser
          return CachePolicy.defaults(name, java.time.Duration.ofSeconds(1), java.time.Duration.ZERO)
              .with("ttl=" + annotation.ttl()).ttl();
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("@PageFragment(\"" + name + "\").ttl on " + where + ": '" + annotation.ttl()
              + "' is not a duration; use e.g. 30s, 5m, 1h", e);
        }
      });
      cache.fragment(name, ttl, HttpServletRequest::getRemoteUser, renderer);
    }
  }

  @SuppressWarnings("unchecked")
  private static Function<HttpServletRequest, Object>[] arguments(Method method, String name, String where) {
    Class<?>[] types = method.getParameterTypes();
    Function<HttpServletRequest, Object>[] args = new Function[types.length];
    for (int i = 0; i < types.length; i++) {
      Class<?> t = types[i];
      if (t.isAssignableFrom(HttpServletRequest.class)) {
        args[i] = req -> req;
      } else if (t == HttpSession.class) {
        args[i] = req -> req.getSession(false);
      } else if (t == Principal.class) {
        args[i] = HttpServletRequest::getUserPrincipal;
      } else if (!t.isPrimitive() && t != String.class) {
        String attribute = t.getName(); // e.g. Spring Security's CsrfToken, which its filter puts there
        args[i] = req -> t.isInstance(req.getAttribute(attribute)) ? req.getAttribute(attribute) : null;
      } else {
        throw new PageCacheSettingsException(new IllegalArgumentException("@PageFragment(\"" + name + "\") on " + where
            + ": cannot be given a " + t.getSimpleName() + "; take HttpServletRequest, HttpSession, Principal"
            + " or an object the request holds under its class name (CsrfToken)"));
      }
    }
    return args;
  }
}
