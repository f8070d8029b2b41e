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

/**
 * Puts a match of priority `prio` on `line` into the best at `at` (i32 priority, then u32
 * line: the layout of every record of bests) when it outranks the one there.
 */
@inline export function rankInto(at: usize, prio: i32, line: u32): void {
  if (outranks(prio, line, load<i32>(at), load<u32>(at, 4))) {
    store<i32>(at, prio);
    store<u32>(at, line, 4);
  }
}
