// How two matches of one kind (allow or disallow) rank, stated once for every matcher: the higher priority, then the earlier line.

/**
 * Whether a match of priority `prio` on `line` ranks above the best so far (`bestPrio`,
 * `bestLine`; -1 / 0: none): RFC 9309 §2.2.2's longest match, ties between equal patterns
 * to the earlier line (robots.cc keeps the first). A record with no match (-1) never
 * outranks one.
 */
@inline export function outranks(prio: i32, line: u32, bestPrio: i32, bestLine: u32): bool {
  return prio > bestPrio || (prio == bestPrio && prio >= 0 && line < bestLine);
}
