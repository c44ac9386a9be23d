package org.pagecache.spring;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Start-up checks of what writes refresh, so a typo fails start-up instead of refreshing nothing
 * on every write: the handlers {@link RefreshesPages#handlers()} name
 * exist, and {@code tags=} templates of {@code pagecache.policies} use variables of their handler's mappings.
 */
final class WriteTargets {
  private WriteTargets() {}

  /**
   * @param policyHandlers the handlers the merged policies name
   * @throws IllegalArgumentException naming the method or the policy entry
   */
  static void check(ControllerHandlers handlers, PolicyRules rules, Set<String> policyHandlers) {
    Set<String> known = new TreeSet<>(handlers.names());
    known.addAll(policyHandlers);
    known.remove("default");
    for (Map.Entry<String, String> e : handlers.refreshTargets().entrySet()) {
      if (!known.contains(e.getKey())) {
        throw new IllegalArgumentException("@RefreshesPages(handlers = \"" + e.getKey() + "\") on " + e.getValue()
            + ": no controller method or policy has that handler; the handlers are " + known);
      }
    }
    for (Map.Entry<String, List<String>> e : rules.tags().entrySet()) {
      Set<String> vars = handlers.variablesOf(e.getKey());
      for (String template : e.getValue()) {
        Set<String> used = TagTemplates.variables(template);
        if (!used.isEmpty() && (vars == null || !vars.containsAll(used))) {
          throw new IllegalArgumentException("pagecache.policies: " + e.getKey() + ": tags=" + template + " uses "
              + used + " but " + (vars == null ? "no controller method has that handler" : "its mappings have only " + vars));
        }
      }
    }
  }
}
