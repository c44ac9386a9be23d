package org.pagecache.spring;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.UserDetails;

/**
 * The signed-in member's own details as Spring Security holds them, for PageCache's body check
 * ({@link org.pagecache.PageCache#personalValues}): a page built for a group that shows one of them
 * stays the member's. Asked before each signed-in build for sharing, never on a hit:
 * <ul>
 *   <li>the {@code Authentication}'s name and the {@code UserDetails} username;
 *   <li>the principal's own text properties that name or reach the person: getters and record
 *       components returning a String whose name holds {@code name}, {@code mail} or {@code phone}
 *       ({@code getFullName()}, {@code email()}, {@code OidcUser.getGivenName()}), never a password;
 *   <li>an OAuth2 principal's attributes ({@code OAuth2User}, {@code OidcUser}: the OIDC standard
 *       claims of a person), when spring-security-oauth2-core is on the class path; read through its
 *       interface found by name, so the starter does not require it.
 * </ul>
 */
final class VisitorDetails implements Function<HttpServletRequest, Collection<String>> {
  /** OIDC standard claims (and GitHub's {@code login}) that name or reach the person. */
  static final List<String> PERSON_ATTRIBUTES = List.of("name", "given_name", "family_name", "middle_name",
      "nickname", "preferred_username", "email", "phone_number", "login");
  private static final ClassValue<List<Method>> PROPERTIES = new ClassValue<>() {
    @Override
    protected List<Method> computeValue(Class<?> type) {
      return personProperties(type);
    }
  };

  private final Class<?> oauth2Principal;
  private final Method attributes;

  VisitorDetails() {
    Class<?> type = null;
    Method getter = null;
    try {
      type = Class.forName("org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal", false,
          VisitorDetails.class.getClassLoader());
      getter = type.getMethod("getAttributes");
    } catch (ClassNotFoundException | NoSuchMethodException | LinkageError absent) {
      type = null; // no OAuth2 on the class path: no attributes to read
    }
    this.oauth2Principal = type;
    this.attributes = getter;
  }

  @Override
  public Collection<String> apply(HttpServletRequest request) {
    Authentication auth = SecurityContextHolder.getContext().getAuthentication();
    if (auth == null || auth instanceof AnonymousAuthenticationToken || !auth.isAuthenticated()) {
      return List.of();
    }
    Set<String> values = new LinkedHashSet<>();
    values.add(auth.getName());
    Object principal = auth.getPrincipal();
    if (principal instanceof UserDetails user) {
      values.add(user.getUsername());
    }
    if (principal != null && !(principal instanceof String)) {
      for (Method property : PROPERTIES.get(principal.getClass())) {
        add(values, invoke(property, principal));
      }
      if (oauth2Principal != null && oauth2Principal.isInstance(principal)
          && invoke(attributes, principal) instanceof Map<?, ?> map) {
        PERSON_ATTRIBUTES.forEach(name -> add(values, map.get(name)));
      }
    }
    values.remove(null);
    return values;
  }

  private static void add(Set<String> values, Object value) {
    if (value instanceof String text && !text.isBlank()) {
      values.add(text);
    }
  }

  private static Object invoke(Method method, Object target) {
    try {
      return method.invoke(target);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // a property that cannot be read is not shown by the application either
    }
  }

  /** Public String properties of a public type (its getters and record components) that name or reach the person. */
  static List<Method> personProperties(Class<?> type) {
    List<Method> found = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    if (type.isRecord() && Modifier.isPublic(type.getModifiers())) {
      for (RecordComponent c : type.getRecordComponents()) {
        names.add(c.getAccessor().getName());
      }
    }
    for (Method m : type.getMethods()) {
      boolean property = m.getName().startsWith("get") || names.contains(m.getName());
      String lower = m.getName().toLowerCase(Locale.ROOT);
      if (property && m.getParameterCount() == 0 && m.getReturnType() == String.class
          && !Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getDeclaringClass().getModifiers())
          && (lower.contains("name") || lower.contains("mail") || lower.contains("phone"))
          && !lower.contains("password")) {
        found.add(m);
      }
    }
    return List.copyOf(found);
  }
}
