package org.pagecache.stats;

/**
 * One memcached node at one moment.
 *
 * @param name its address, as {@code memcached.servers} (or the gutter or a pool) lists it
 * @param pool {@code main}, {@code gutter} or the name of its {@code memcached.pools} pool
 * @param down whether it is taken out now (down or hung): its keys go to the gutter or their handlers
 * @param outages how many times it was taken out since start-up
 */
public record NodeState(String name, String pool, boolean down, long outages) {}
