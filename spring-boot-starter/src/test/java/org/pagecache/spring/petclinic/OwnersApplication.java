package org.pagecache.spring.petclinic;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.pagecache.spring.CachedPage;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * PetClinic's owner flow (issue 31): the owner page, and the edit, add-pet and add-visit forms' POSTs,
 * each of which sets a flash attribute and redirects to the owner page, as PetClinic's controllers do.
 * The flash attribute lives in the session, so a visitor without a session cookie gets a new one and
 * the container rewrites the redirect to {@code /owners/1;jsessionid=...}. No {@code refreshed-by}.
 * PetClinic has no Spring Security (the starter's tests have it on the class path); this application
 * lets every request through, keeps the container's URL rewriting on and lets a {@code ;} in a URL
 * through its firewall, as it is without Spring Security.
 */
@SpringBootApplication
public class OwnersApplication {
  static final Map<Integer, String> NAMES = new ConcurrentHashMap<>(Map.of(1, "George Franklin"));
  static final List<String> PETS = new CopyOnWriteArrayList<>(List.of("Leo"));
  static final List<String> VISITS = new CopyOnWriteArrayList<>();

  @Controller
  public static class OwnerController {
    @GetMapping("/owners/{ownerId}")
    @CachedPage(handler = "owner", ttl = "5m")
    @ResponseBody
    public String showOwner(@PathVariable int ownerId, Model model) {
      Object message = model.getAttribute("message");
      return "<h2>Owner Information</h2><p>" + NAMES.get(ownerId) + "</p><p>pets " + PETS + "</p><p>visits " + VISITS
          + "</p>" + (message == null ? "" : "<div class=alert>" + message + "</div>");
    }

    @PostMapping("/owners/{ownerId}/edit")
    public String processUpdateOwnerForm(@PathVariable int ownerId, @RequestParam String name, RedirectAttributes flash) {
      NAMES.put(ownerId, name);
      flash.addFlashAttribute("message", "Owner Values Updated");
      return "redirect:/owners/{ownerId}";
    }

    @PostMapping("/owners/{ownerId}/pets/new")
    public String processCreationForm(@PathVariable int ownerId, @RequestParam String name, RedirectAttributes flash) {
      PETS.add(name);
      flash.addFlashAttribute("message", "New Pet has been Added");
      return "redirect:/owners/{ownerId}";
    }

    @PostMapping("/owners/{ownerId}/pets/{petId}/visits/new")
    public String processNewVisitForm(@PathVariable int ownerId, @PathVariable int petId,
        @RequestParam String description, RedirectAttributes flash) {
      VISITS.add(description);
      flash.addFlashAttribute("message", "Your visit has been booked");
      return "redirect:/owners/{ownerId}";
    }
  }

  @Bean
  SecurityFilterChain openSite(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(auth -> auth.anyRequest().permitAll())
        .csrf(csrf -> csrf.disable())
        .sessionManagement(sessions -> sessions.enableSessionUrlRewriting(true));
    return http.build();
  }

  @Bean
  WebSecurityCustomizer sessionIdInUrls() {
    StrictHttpFirewall firewall = new StrictHttpFirewall();
    firewall.setAllowSemicolon(true);
    return web -> web.httpFirewall(firewall);
  }
}
