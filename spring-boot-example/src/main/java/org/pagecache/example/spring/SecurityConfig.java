package org.pagecache.example.spring;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Pages are public; Actuator (but health) and the cache admin need a signed-in operator. The
 * admin servlet checks role {@code pagecache-admin} itself through {@code request.isUserInRole},
 * which Spring Security answers from the user's roles. The admin servlet and Actuator are called
 * with HTTP Basic (no browser session to ride on), so Spring's CSRF check is left to the admin
 * servlet's own token for them. Replace the in-memory user by your identity provider.
 *
 * <p>Paths rather than {@code EndpointRequest}: that class moved between Spring Boot 3 and 4, and
 * this example runs on both; with a {@code management.endpoints.web.base-path} of your own, use it here.
 */
@Configuration
public class SecurityConfig {
  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(auth -> auth
            .requestMatchers("/actuator/health").permitAll()
            .requestMatchers("/actuator/**").hasRole("ops")
            .requestMatchers("/cache-admin/**").authenticated()
            .anyRequest().permitAll())
        .httpBasic(Customizer.withDefaults())
        .csrf(csrf -> csrf.ignoringRequestMatchers("/actuator/**", "/cache-admin/**"));
    return http.build();
  }

  /**
   * The operator, and the members {@code alice} and {@code bob} (role {@code member}) when
   * {@code example.member.password} is set: example users, to show members served from the cache.
   */
  @Bean
  InMemoryUserDetailsManager users(@Value("${example.ops.password}") String password,
      @Value("${example.member.password:}") String memberPassword) {
    InMemoryUserDetailsManager users = new InMemoryUserDetailsManager(
        User.withUsername("ops").password("{noop}" + password).roles("ops", "pagecache-admin").build());
    if (!memberPassword.isBlank()) {
      for (String member : new String[] {"alice", "bob"}) {
        users.createUser(User.withUsername(member).password("{noop}" + memberPassword).roles("member").build());
      }
    }
    return users;
  }
}
