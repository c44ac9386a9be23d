package org.pagecache.store;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The memcached servers of one cluster with their Ketama weights, parsed from the one-line form
 * an operator writes in web.xml: {@code host:port[:weight],host:port[:weight]...}. Parsing is
 * strict so a typo fails at start-up with a message naming the parameter, instead of silently
 * running with one server less.
 *
 * <pre>{@code
 * ServerList servers = ServerList.parse("memcached.servers", "10.0.0.1:11211,10.0.0.2:11211:2");
 * }</pre>
 *
 * <p>Host names are resolved once, when parsed. IPv6 literals are not accepted (the colon is the
 * separator); use a host name.
 *
 * @param addresses the servers; a host that could not be resolved stays unresolved, and the
 *     client reports that server down
 * @param weightList the Ketama weight of each server, in the same order (1 when not written)
 */
public record ServerList(List<InetSocketAddress> addresses, List<Integer> weightList) {
  /** A sane ceiling: Ketama places 160 points per weight unit on its ring. */
  public static final int MAX_WEIGHT = 100;

  private static final String FORMAT = "use host:port[:weight],... e.g. 127.0.0.1:11211,10.0.0.2:11211:2";

  /**
   * Checks that there is one weight per server; use {@link #parse} for the operator's form.
   *
   * @throws IllegalArgumentException when there is no server, or not one weight per server
   */
  public ServerList {
    addresses = List.copyOf(addresses);
    weightList = List.copyOf(weightList);
    if (addresses.isEmpty() || addresses.size() != weightList.size()) {
      throw new IllegalArgumentException("need one weight per server, got " + addresses.size()
          + " servers and " + weightList.size() + " weights");
    }
  }

  /**
   * Parses {@code value}; on any mistake throws an {@link IllegalArgumentException} whose message
   * names {@code paramName}, the value, what is wrong and the accepted format.
   */
  public static ServerList parse(String paramName, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(paramName + ": no servers given; " + FORMAT);
    }
    List<InetSocketAddress> addresses = new ArrayList<>();
    List<Integer> weights = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String raw : value.split(",", -1)) {
      String entry = raw.strip();
      String problem = problemWith(entry);
      if (problem == null && !seen.add(endpoint(entry))) {
        problem = endpoint(entry) + " is listed twice";
      }
      if (problem != null) {
        throw new IllegalArgumentException(paramName + ": '" + value + "' is not a server list ("
            + problem + "); " + FORMAT);
      }
      String[] parts = entry.split(":");
      addresses.add(address(parts[0], Integer.parseInt(parts[1])));
      weights.add(parts.length == 3 ? Integer.parseInt(parts[2]) : 1);
    }
    return new ServerList(addresses, weights);
  }

  /** The weights, one per address, as xmemcached takes them (a new array each call). */
  public int[] weights() {
    return weightList.stream().mapToInt(Integer::intValue).toArray();
  }

  /** {@code host:port} of server {@code i}, as the operator wrote the host. */
  public String hostPort(int i) {
    InetSocketAddress address = addresses.get(i);
    return address.getHostString() + ":" + address.getPort();
  }

  /** The number of servers. */
  public int size() {
    return addresses.size();
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < size(); i++) {
      s.append(i == 0 ? "" : ",").append(hostPort(i)).append(':').append(weightList.get(i));
    }
    return s.toString();
  }

  /**
   * Resolves the host once, now, and pins the name as written: xmemcached calls
   * {@code getHostName()} when logging, which would otherwise do a reverse DNS lookup (slow when
   * DNS is) and make {@code 127.0.0.1} show up as {@code localhost}. An unknown host stays
   * unresolved; the client then reports that server down instead of failing start-up.
   */
  private static InetSocketAddress address(String host, int port) {
    try {
      InetAddress resolved = InetAddress.getByName(host);
      return new InetSocketAddress(InetAddress.getByAddress(host, resolved.getAddress()), port);
    } catch (UnknownHostException e) {
      return InetSocketAddress.createUnresolved(host, port);
    }
  }

  /** Why {@code entry} is not {@code host:port[:weight]}, or null when it is. */
  private static String problemWith(String entry) {
    if (entry.isEmpty()) {
      return "empty entry";
    }
    String[] parts = entry.split(":", -1);
    if (parts.length < 2 || parts.length > 3) {
      return "'" + entry + "' is not host:port[:weight]";
    }
    if (parts[0].isEmpty() || parts[0].chars().anyMatch(Character::isWhitespace)) {
      return "'" + entry + "' has no valid host";
    }
    if (!inRange(parts[1], 1, 65535)) {
      return "port '" + parts[1] + "' is not 1..65535";
    }
    if (parts.length == 3 && !inRange(parts[2], 1, MAX_WEIGHT)) {
      return "weight '" + parts[2] + "' is not 1.." + MAX_WEIGHT;
    }
    return null;
  }

  private static boolean inRange(String digits, int min, int max) {
    if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return false;
    }
    int n = Integer.parseInt(digits);
    return n >= min && n <= max;
  }

  /** host:port with the port normalised, to spot the same server listed twice. */
  private static String endpoint(String entry) {
    String[] parts = entry.split(":");
    return parts[0] + ":" + Integer.parseInt(parts[1]);
  }
}
