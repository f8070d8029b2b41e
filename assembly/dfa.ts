// Every wildcard rule of a table, and its plain rules when they fit, as one lazily built DFA: one table load per path byte, whatever the number of rules.
//
// Why: matching wildcard rules one at a time (match.ts) costs a prefilter per block of 16
// rules plus a scan per candidate rule, so a shop's 60 facet and locale rules cost several
// times the URL's own preparation. Here a path byte costs one class lookup and one
// transition load, and `scanDfaQueue` reads four paths at once, so that the four chains of
// dependent loads overlap instead of each waiting on its own; a lane whose path ends takes
// the next queued one, so that the four stay busy.
//
// The NFA. A rule `s0*s1*…*sk[$]` is a chain of positions, one per piece byte, then an end
// position: MATCH (the rule has matched; it never enters a state) or, for an anchored rule,
// FINAL (the rule matches when the path ends here). A position of s0 expects its byte and
// dies otherwise (s0 is anchored at the path's start); the first position of a later
// piece is a LOOP: it stays (the `*` before it) and moves on when its byte comes; other
// positions move on or die. A rule with an empty anchored last piece after a `*` (`/a*$`)
// ends in MATCH: `*$` accepts any rest.
//
// The plain rules, folded in. The trie's rules (a node's prefix allow and disallow, of
// priority its depth d plus their extra, and exact allow and disallow, `…$`, of priority
// d + 1: format.ts) become one-piece rules after the wildcard ones: the node's d bytes
// from the root, then MATCH (prefix) or FINAL (exact). Then a path's verdict needs no
// trie walk (match.ts decideQueued and decide; left out, the walk saved 18–33% a URL on
// four corpus tables of 55 to 159 wildcard rules). The fold is
// dropped (`flush`: the region laid out again without it, in MODE_CARRY) at its first
// flush: a plain rule matched is a best carried on, so each one a workload matches starts
// its own copy of the wildcard states that follow (DFA_PER_RULE and DFA_PER_NODE leave
// room for them). Folded only when the plain rules have FOLD_POSITIONS positions or fewer
// and the region keeps room for states.
//
// A DFA state is a set of positions plus a record of matches (best allow and disallow:
// priority, then earliest line, as match.ts's loop ranks them). Greedy placement keeps
// sets small without changing any verdict: once a rule has a position in piece i, its
// positions in earlier pieces are dropped. Whatever the earlier ones could still reach,
// the LOOP of piece i reaches from here (leftmost placement is always safe for `*`-only
// globs, match.ts). The record means one of two things, the region's mode:
//   - MODE_CARRY (a table's first): the bests so far. A rule that can no longer become the
//     best of its kind, or beat the other kind's best, is dropped from the set too (allow
//     wins ties, match.ts `decide`), so paths go DEAD early and a scan needs no bookkeeping;
//     but every best multiplies the states that follow it;
//   - MODE_STEP (from the cache's first flush): the matches of the step into the state.
//     The scan merges them into the path's record when the transition says so (HEED); sets
//     keep every live rule, but states no longer multiply by the bests. On the corpus
//     workloads that overflowed MODE_CARRY's cache (www.vmware.com: 1,684 states, 334 KB
//     for a 312 KB cache), MODE_STEP needed 1.6–7× fewer (vmware 536 states, 117 KB); where
//     both fit, MODE_STEP cost 13–21% more a URL (retail, apple, microsoft).
// Each state also holds its end record: the FINAL positions it holds (MODE_CARRY: plus its
// bests).
//
// Lazily: states are built on first use into a bounded cache in the RuleIndex (the RE2
// "hybrid DFA" idea). A state is a row of u16 transitions, one per byte class, kept apart
// from its set and verdicts so that the rows a workload uses stay in the first-level
// cache. A transition is the target row's offset / 8 (a multiple of 2), its bit 0 (HEED)
// set when the scan must read the target's meta flags: DEAD (it holds no position: no
// later byte changes the verdict; a scan stops there, and the row of a DEAD state leads
// back to itself without HEED, so the lanes of scanDfaQueue can keep stepping) or OUT
// (MODE_STEP: rules matched on the way in); 0xffff while UNKNOWN (not built yet).
//
// Bounds. A path of L bytes costs at most L transitions. Building one state costs O(P) for
// P positions (the set is produced in order: no sort), so a path costs O(L × P) when every
// step misses; a path may build at most MISS_BUDGET states, after
// which `scanDfa` gives up and match.ts judges the path rule by rule (linear: O(L + W × L)
// for W rules). When the cache is full it is emptied and the path starts again once; the
// first flush turns MODE_CARRY into MODE_STEP; after it, a table whose cache keeps filling
// having built more than one state per PATHS_PER_STATE paths stops using the DFA (its
// workload builds states faster than it reuses them, and building costs far more than
// matching rule by rule): such a fill counts two strikes, a slower one forgives one, and
// 2 × STRIKE_LIMIT strikes give up, so fills too soon between slower ones add up where a
// count of fills in a row would start over (www.selfridges.com: its DFA churned at 1.6×
// the cost of matching rule by rule). So a path
// costs O(L + MISS_BUDGET × P) plus, at worst, the rule-by-rule fallback, and the region
// never grows. Verdicts never depend on which path is taken: both are exact.
//
// Which tables. A table with DFA_MIN_RULES wildcard rules or more uses the DFA from its
// first path. One with DFA_TRIAL_RULES or more starts rule by rule, on trial: its paths
// count the full rule matches they cost (`notePath`) in windows of TRIAL_PATHS, and the DFA
// takes over after a window that averaged TRIAL_CALLS_X2 / 2 or more, the point from which
// it measured cheaper on the corpus's tables of that size (a table whose rules pass the
// prefilter often, such as `/*str1` … `/*/*/str9*`), or after the first window when it
// holds the plain rules too (its verdicts then need no trie walk); a DFA on for its fold
// alone that drops the fold (`flush`) puts the table back on trial. Until then the table
// stays rule by rule. Either way the DFA's own limits below still apply. A crowd
// (FLAG_WILDCARD_AUTOMATON) starts with the DFA too, in a region that can also hold its
// Aho–Corasick automaton (wildcards.ts): when the DFA gives up, or cannot be built,
// match.ts builds the automaton there instead (rule-index.ts `switchToAutomaton`). Both
// write their `enabled` word at the region's offset 0, the DFA DFA_ON and the automaton
// another value, so that the word tells which one the region holds. A crowd gives up at
// its first flush in MODE_STEP. 24 of the corpus's 29 crowd files (Googlebot's tables)
// keep the DFA, at 0.46–0.92× the automaton's cost; the 5 others (hundreds of facet rules:
// www.next.co.uk, etsy.com, www.etsy.com, www.sophos.com, www.screwfix.com) outgrow the
// cache in both modes within their first 20,000 paths.
//
// Memory: one region in the RuleIndex, `dfaBytesFor` bytes (DFA_BASE plus DFA_PER_RULE per
// wildcard rule, DFA_TRIAL_PER_RULE below DFA_MIN_RULES, plus DFA_PER_NODE per trie node
// up to DFA_FOLD_NODES nodes, at most DFA_CAP, or more within what rule-index.ts's
// AGENT_BYTES leaves beside the table: sized from the table's header so the host can place
// the RuleIndex). When the positions leave less than
// DFA_MIN_ARENA bytes for states, the DFA stays off (with the plain rules: it is laid out
// without them).
//
// Why one file of ~1,000 lines: the region's layout, the build that writes states into it and
// the scans that read them are one format; apart, each would restate the others' offsets
// and the invariants (ascending sets, DEAD rows leading to themselves) the scans rely on.
//
// Region layout (offsets from its 16-aligned start):
//    0 u32 enabled        DFA_ON (1): scanDfa may be used; 0: never built, on trial, or given up
//                         (a crowd's region then takes its automaton: wildcards.ts's word, 2 or 3)
//    4 u32 classCount     transitions per row
//    8 u32 positionCount  P
//   12 u32 rowBytes       2 × classCount + 4 (the meta link), rounded up to 16
//   16 u32 rowsAt         the arena's start: rows grow up from here …
//   20 u32 rowsNext       … (bytes of rows in use; a state is named by its row's offset) …
//   24 u32 metaNext       … and meta records grow down from here …
//   28 u32 arenaEnd       … from the region's end
//   32 u32 start          the start state's transition | 0x10000 (0: not built yet)
//   36 u32 strikes        two per flush that came too soon (PATHS_PER_STATE), less one per slower one
//   40 u32 paths          paths scanned since the last flush
//   44 u32 posAt          POS[P]
//   48 u32 hashAt         u32 heads[HASH_SLOTS]: row offset + 1 of a state, chained through M_NEXT
//   52 u32 scratchAt      u16[2P + 2]: the set being built
//   56 u32 flushes        flushes so far (a diagnostic)
//   60 u32 trial          paths the trial's window still counts (tables below DFA_MIN_RULES), 0: none
//   64 u32 trialCalls     full rule matches the window's paths cost so far
//   68 u32 mode           MODE_CARRY (0) or MODE_STEP (1): what a state's record means (above)
//   72 u32 packedAt       u8[3P + 16]: the set being stored, packed (Meta below)
//   76 u32 rulesAt        RULE[R]: the wildcard rules (table order), then the plain ones
//   80 u32 plainRules     plain rules folded in (0: none; the trie walk adds them)
//   84 u32 forFold        1: a trial turned the DFA on for its fold alone (notePath), so
//                         dropping the fold puts the table back on trial
//   88 u32 loopHashAt     u32 heads[LOOP_SLOTS]: offset of a LOOPS record, chained through L_NEXT
//   92 u32 loopRecords    LOOPS records in the cache (a diagnostic)
//   96 u8 classOf[256]    byte → its class (0: a byte no piece has)
//  352 u16 classAt[256]  byte → its transition's offset in a row (2 × class: the scans' step adds it)
// POS (8 bytes): 0 u32 rule (its RULE's index), 4 u8 byte (expected),
//                5 u8 kind (FIRST, LOOP, INNER, FINAL, MATCH), 6 u16 piece
// RULE (16 bytes): 0 i32 priority, 4 u32 line, 8 u32 kind (KIND_ALLOW, KIND_DISALLOW), 12 u32 0
// Row (rowBytes, at rowsAt + s, s < ROWS_CAP): u16 transition[classCount], then at
//   rowBytes − 4 the u32 offset of the state's meta record
// Meta: 0 u32 next (row offset + 1 of the next state in the hash chain, 0: none),
//   4 u32 hash, 8 u32 setLength (bytes of the packed set), 12 u32 flags (DEAD, OUT),
//   16 i32 allowPrio, u32 allowLine, i32 disallowPrio, u32 disallowLine (the record: the
//      bests so far, or the step's matches; -1 / 0: none),
//   32 i32 endAllowPrio, u32 endAllowLine, i32 endDisallowPrio, u32 endDisallowLine,
//   48 u32 loops          offset of the LOOPS record holding the state's LOOP positions (0: none)
//   52 u8 set[setLength]  its other positions, ascending, packed: each one's distance from
//      the one before (the first's from 0) in 1 byte below 0x80, 2 bytes (0x80 | bits 8‥13,
//      bits 0‥7) below 0x4000, else 3 (0xc0, bits 8‥15, bits 0‥7); padded to 16. On the
//      corpus's crowds in MODE_STEP, half the bytes of u16 positions: twice the states in a
//      cache.
// LOOPS (from the back of the arena too, with the meta records; interned through
//   loopHashAt): 0 u32 next (offset of the next record in the hash chain, 0: none), 4 u32
//   hash, 8 u32 bytes, 12 u8 set[bytes] the LOOP positions, packed as above; padded to 16.
//   Why apart: LOOPs are 90–97% of a state's positions on the corpus's crowds, and few
//   distinct sets of them (68–599 a workload, against 2,900–16,000 states built) are
//   shared by many states, which differ in the few positions inside a piece. Stored once,
//   a state's meta record shrinks to its header and those few positions.

import { rankInto } from './rank';
import {
  KIND_ALLOW, KIND_DISALLOW, NODE_SIZE, N_CHILD_COUNT, N_FIRST_CHILD, N_LABEL_LENGTH, N_LABEL_OFFSET, N_PREFIX_ALLOW, N_ALLOW_EXTRA, H_NODE_COUNT, H_NODES_OFFSET, SEGMENT_SIZE, S_BYTES_OFFSET, S_LENGTH, WILDCARD_SIZE, W_ANCHORED, W_FIRST_SEGMENT, W_KIND, W_LINE, W_PRIORITY,
  W_SEGMENT_COUNT, FLAG_WILDCARD_AUTOMATON, H_FLAGS, H_SEGMENTS_OFFSET, H_WILDCARD_COUNT, H_WILDCARDS_OFFSET,
} from './table';

/** Wildcard rules from which a table uses the DFA from its first path. */
export const DFA_MIN_RULES: u32 = 32;
/**
 * Wildcard rules from which a table gets a DFA region at all. Below DFA_MIN_RULES the
 * prefilter of match.ts is as cheap or cheaper for most tables, so such a table starts
 * rule by rule and switches to the DFA after a window of TRIAL_PATHS paths that cost
 * TRIAL_CALLS_X2 / 2 full rule matches or more per path on average, or whose DFA holds
 * the plain rules too (`notePath`).
 */
export const DFA_TRIAL_RULES: u32 = 8;
/** Paths of a trial's window. */
export const TRIAL_PATHS: u32 = 512;
/**
 * Rule matches (`wildcardMatches` calls) per path, times 2, from which a trial turns the
 * DFA on: 0.5 a path. With the plain rules folded in (no trie walk after the scan), the
 * sweep's 728 tables of 8–31 wildcard rules cost 0.915× (geometric mean; p10 0.78, p90
 * 1.02) what they cost with the threshold at 1.5 a path, and 0.926× (p90 1.11) with the
 * DFA on after any window (bench/compare.mjs, A/A 0.998–1.000). A DFA that folds goes on
 * after the first window whatever its matches (`notePath`): 0.968× (p10 0.824, p90 1.026;
 * A/A 1.003), 0.91–0.94× for the tables that cost 2.4× the floor or more rule by rule.
 */
export const TRIAL_CALLS_X2: u32 = 1;
/**
 * Region bytes: DFA_BASE + DFA_PER_RULE × wildcard rules (DFA_TRIAL_PER_RULE below
 * DFA_MIN_RULES, whose region often stays unused), at most DFA_CAP. A folded DFA needs
 * more states (header); at 8 KiB a rule, 178 of the sweep's 515 DFA tables in use dropped
 * their fold at the first flush (retail's too), at 12 KiB 62 of 952. At 12 KiB for tables
 * of 32 or more rules, the sweep's 427 such tables cost 0.927× (geometric mean; p10 0.783)
 * and the 4,686 corpus agents take 459 MB instead of 392 MB placed (the largest agent is
 * still www.sophos.com's 1,036,436 bytes: those near DFA_CAP already had it).
 */
export const DFA_BASE: u32 = 64 << 10;
export const DFA_PER_RULE: u32 = 12 << 10;
export const DFA_TRIAL_PER_RULE: u32 = 8 << 10;
export const DFA_CAP: u32 = 768 << 10;
/**
 * Region bytes per trie node, for the states the plain rules add once folded in (header):
 * each plain rule a workload matches starts its own copy of the wildcard states that
 * follow. The corpus's costliest trial tables, which dropped their fold at the first flush
 * (www.att.com, ikea.com, cdiscount.com, newegg.com…), needed 1.6–5.1 KiB a node to keep
 * it. Only for a trie of at most DFA_FOLD_NODES nodes: a larger one has more than
 * FOLD_POSITIONS positions in practice (a rule's bytes from the root, plus one), so it is
 * not folded. On the sweep's workloads, the 675 trial tables cost 0.972× (geometric mean;
 * p10 0.857) what they did without it, the others 0.997×; the 4,686 corpus agents take
 * 587 MB placed instead of 447 MB, none over 1 MiB.
 */
export const DFA_PER_NODE: u32 = 3 << 10;
export const DFA_FOLD_NODES: u32 = 1024;
/** Least arena left for states, else no DFA. */
const DFA_MIN_ARENA: u32 = 32 << 10;
/** Most row bytes (a transition holds offset / 8 in 16 bits, 0xffff kept for UNKNOWN). */
const ROWS_CAP: u32 = (1 << 19) - 16;
/** Most states one path may build before it is judged rule by rule. */
const MISS_BUDGET: u32 = 96;
/** A flush is a strike when the cache built more than one state per PATHS_PER_STATE paths since the last one … */
const PATHS_PER_STATE: u32 = 8;
/** … counting two, a slower fill forgiving one; at 2 × STRIKE_LIMIT strikes the table stops using the DFA. */
const STRIKE_LIMIT: u32 = 3;
/** Hash heads (a power of two). */
const HASH_SLOTS: u32 = 2048;
/** Hash heads of the LOOPS records (a power of two): a workload has tens to hundreds of distinct ones. */
const LOOP_SLOTS: u32 = 256;
/** Most positions (u16 sets). */
const MAX_POSITIONS: u32 = 0xfffe;
/** No position: past the end of a packed set (above MAX_POSITIONS). */
const NONE: u32 = 0xffffffff;
/**
 * Most positions of the plain rules (their bytes plus one per rule) a DFA takes in
 * (`layOut`): 15 bytes of region each (POS, scratch and packed set), so at most 120 KB,
 * and a bound on the start state's set. Of the corpus's 1,155 DFA tables (bench/sweep.mjs's
 * two agents), 1,054 fold when built.
 */
export const FOLD_POSITIONS: u32 = 8192;

const D_ENABLED: u32 = 0;
const D_CLASS_COUNT: u32 = 4;
const D_POSITIONS: u32 = 8;
const D_ROW_BYTES: u32 = 12;
const D_ROWS_AT: u32 = 16;
const D_ROWS_NEXT: u32 = 20;
const D_META_NEXT: u32 = 24;
const D_ARENA_END: u32 = 28;
const D_START: u32 = 32;
const D_STRIKES: u32 = 36;
const D_PATHS: u32 = 40;
const D_POS_AT: u32 = 44;
const D_HASH_AT: u32 = 48;
const D_SCRATCH_AT: u32 = 52;
const D_FLUSHES: u32 = 56;
const D_TRIAL: u32 = 60;
const D_TRIAL_CALLS: u32 = 64;
const D_MODE: u32 = 68;
const D_PACKED_AT: u32 = 72;
const D_RULES_AT: u32 = 76;
const D_PLAIN_RULES: u32 = 80;
const D_FOR_FOLD: u32 = 84;
const D_LOOP_HASH_AT: u32 = 88;
const D_LOOP_RECORDS: u32 = 92;
const D_CLASS_OF: u32 = 96;
const D_CLASS_AT: u32 = D_CLASS_OF + 256;
const D_HEADER: u32 = D_CLASS_AT + 512;


/** RULE (16 bytes): what ranks a rule's match, for wildcard and folded plain rules alike. */
const RULE_SIZE: u32 = 16;
const U_PRIORITY: u32 = 0;
const U_LINE: u32 = 4;
const U_KIND: u32 = 8;

const POS_SIZE: u32 = 8;
const P_RULE: u32 = 0;
const P_BYTE: u32 = 4;
const P_KIND: u32 = 5;
const P_PIECE: u32 = 6;

const FIRST: u32 = 0;
const LOOP: u32 = 1;
const INNER: u32 = 2;
const FINAL: u32 = 3;
const MATCH: u32 = 4;

const M_NEXT: u32 = 0;
const M_HASH: u32 = 4;
const M_SET_LENGTH: u32 = 8;
const M_FLAGS: u32 = 12;
const M_BESTS: u32 = 16;
const M_END: u32 = 32;
const M_LOOPS: u32 = 48;
const M_SET: u32 = 52;

const L_NEXT: u32 = 0;
const L_HASH: u32 = 4;
const L_BYTES: u32 = 8;
const L_SET: u32 = 12;

/** A transition's bit 0: the scan must look at the target's meta record (its flags say why: DEAD, OUT). */
const HEED: u32 = 1;
/** Meta flags: the state holds no position (no later byte changes the verdict) … */
const DEAD: u32 = 1;
/** … rules matched on the step that entered it (MODE_STEP: its BESTS record). */
const OUT: u32 = 2;
/** How states hold matches (the region's `mode`): the bests so far, as part of the state … */
const MODE_CARRY: u32 = 0;
/** … or only the matches of the step that entered it, which the scan merges as it goes. */
const MODE_STEP: u32 = 1;
/** Not built yet (never a transition: the rows end below ROWS_CAP). */
const UNKNOWN: u32 = 0xffff;
/** Paths `scanDfaQueue` reads at once. */
export const LANES: u32 = 4;

/**
 * The record of the state being built (i32 allowPrio, u32 allowLine, i32 disallowPrio,
 * u32 disallowLine; -1 / 0: none): its bests (MODE_CARRY: so far; MODE_STEP: the step's
 * matches), then the end record of the state built.
 */
const BUILT: usize = memory.data(16, 16);

/** Whether a table of this many wildcard rules has a DFA region (exactly when dfaBytesFor is not 0): decide asks it for every path. */
@inline export function hasDfaRegion(wildcardCount: u32): bool {
  return wildcardCount >= DFA_TRIAL_RULES;
}

/**
 * Bytes of the DFA region of a table with these header fields (0: the table gets none):
 * what its rules and nodes ask for, at most `cap` (rule-index.ts dfaCapFor: what the
 * agent's budget leaves) or DFA_CAP, whichever is larger.
 */
export function dfaBytesFor(flags: u32, wildcardCount: u32, nodeCount: u32, cap: u32): u32 {
  if (!hasDfaRegion(wildcardCount)) return 0;
  const perRule = wildcardCount < DFA_MIN_RULES ? DFA_TRIAL_PER_RULE : DFA_PER_RULE;
  const forNodes = nodeCount <= DFA_FOLD_NODES ? <u64>nodeCount * DFA_PER_NODE : 0;
  return <u32>min<u64>(<u64>DFA_BASE + <u64>wildcardCount * perRule + forNodes, max<u32>(cap, DFA_CAP));
}

/** Off: every table is matched rule by rule (`useDfa`, for tests and benchmarks that compare the two). */
let dfaOff = false;

/** Turns the DFA on (the default) or off for every table of this instance; verdicts are the same either way. */
export function useDfa(on: bool): void {
  dfaOff = !on;
}

/** The `enabled` word of a region whose DFA may be used (a crowd's region that holds its automaton has another value there). */
const DFA_ON: u32 = 1;

/** Whether the region at `dfa` (built by `buildDfa`) holds a DFA that may be used. */
@inline export function dfaEnabled(dfa: usize): bool {
  return !dfaOff && load<u32>(dfa, D_ENABLED) == DFA_ON;
}

/** Whether the DFA in the region at `dfa` holds the table's plain rules too: its verdicts need no trie walk. */
@inline export function dfaFolds(dfa: usize): bool {
  return load<u32>(dfa, D_PLAIN_RULES) != 0;
}

/** Gives up the DFA in the region at `dfa` (its table is matched rule by rule, or a crowd by its automaton). */
export function giveUpDfa(dfa: usize): void {
  if (load<u32>(dfa, D_ENABLED) == DFA_ON) store<u32>(dfa, 0, D_ENABLED);
}

/** Empties the cache of the DFA in the region at `dfa` and turns it to MODE_STEP (a diagnostic for tests: both modes give the same verdicts). */
export function stepDfa(dfa: usize): void {
  if (load<u32>(dfa, D_ROWS_AT) == 0) return;
  empty(dfa);
  store<u32>(dfa, MODE_STEP, D_MODE);
}

/** Whether the region at `dfa` holds no DFA in use: given up, never enabled (it did not fit) or on trial. */
@inline export function dfaGivenUp(dfa: usize): bool {
  return load<u32>(dfa, D_ENABLED) == 0;
}

/**
 * Lays out the DFA of `table` in the region at `dfa` (`bytes` long, zeroed): classes,
 * positions and rule records; states come on demand. Its plain rules are folded in
 * (header) when they fit, else left to the trie walk. O(piece bytes + nodes + plain positions + 256).
 */
export function buildDfa(table: usize, dfa: usize, bytes: u32): void {
  if (bytes == 0) return;
  const plainRules = plainRulesToFold(table, dfa, bytes);
  if (plainRules != 0 && layOut(table, dfa, bytes, plainRules)) return;
  // Without the plain rules (a folded layout that did not fit left part of itself).
  if (plainRules != 0) memory.fill(dfa, 0, bytes);
  layOut(table, dfa, bytes, 0);
}

/** Positions of the plain rules `plainRulesToFold` counted last. */
let plainPositions: u32 = 0;

/**
 * The plain rules of `table` that the region at `dfa` (`bytes`, zeroed) can take in, 0
 * when none or when they would not fit (FOLD_POSITIONS, room): their count, with their
 * positions in `plainPositions`. Each trie node's depth and parent are left in the
 * region's last 8 × nodeCount bytes (parents come before their children: validate.ts),
 * where meta records grow later; zeroed again when the answer is 0. O(nodes).
 */
function plainRulesToFold(table: usize, dfa: usize, bytes: u32): u32 {
  const nodeCount = load<u32>(table, H_NODE_COUNT);
  const nodes = table + load<u32>(table, H_NODES_OFFSET);
  const arenaEnd = bytes & ~15;
  if (<u64>nodeCount * 8 + DFA_MIN_ARENA > <u64>arenaEnd) return 0;
  const links = dfa + arenaEnd - <usize>nodeCount * 8;
  let rules: u32 = 0;
  let positions: u64 = 0;
  // Invariant: the depths and parents of nodes [0, k] are written; positions ≤
  // FOLD_POSITIONS + the depth of one node, so the sum cannot wrap.
  for (let k: u32 = 0; k < nodeCount && positions <= FOLD_POSITIONS; k++) {
    const node = nodes + <usize>k * NODE_SIZE;
    const depth = load<u32>(links + (<usize>k << 3));
    const first = load<u32>(node, N_FIRST_CHILD);
    const children = <u32>load<u16>(node, N_CHILD_COUNT);
    for (let c = first; c < first + children; c++) {
      const child = links + (<usize>c << 3);
      store<u32>(child, depth + load<u32>(nodes + <usize>c * NODE_SIZE, N_LABEL_LENGTH));
      store<u32>(child, k, 4);
    }
    for (let f: u32 = 0; f < 4; f++) {
      if (load<u32>(node + N_PREFIX_ALLOW + (f << 2)) == 0) continue;
      rules++;
      positions += <u64>depth + 1;
    }
  }
  if (rules == 0 || positions > FOLD_POSITIONS) {
    memory.fill(links, 0, <usize>nodeCount * 8);
    return 0;
  }
  plainPositions = <u32>positions;
  return rules;
}

/**
 * buildDfa's work, with `plainRules` plain rules folded in (0: none; else as
 * plainRulesToFold left them): false when the region cannot hold it (then it may hold
 * part of a layout, and the caller zeroes it).
 */
function layOut(table: usize, dfa: usize, bytes: u32, plainRules: u32): bool {
  const count = load<u32>(table, H_WILDCARD_COUNT);
  const wild = table + load<u32>(table, H_WILDCARDS_OFFSET);
  const segments = table + load<u32>(table, H_SEGMENTS_OFFSET);
  // Positions: each piece byte, plus the end of each rule; then the plain rules'.
  let positions: u32 = 0;
  for (let r: u32 = 0; r < count; r++) {
    const rule = wild + <usize>r * WILDCARD_SIZE;
    const segs = segments + <usize>load<u32>(rule, W_FIRST_SEGMENT) * SEGMENT_SIZE;
    const pieces = load<u32>(rule, W_SEGMENT_COUNT);
    for (let s: u32 = 0; s < pieces; s++) positions += load<u32>(segs + <usize>s * SEGMENT_SIZE, S_LENGTH);
    positions++;
  }
  const fold = plainRules != 0;
  const nodeCount = load<u32>(table, H_NODE_COUNT);
  const nodes = table + load<u32>(table, H_NODES_OFFSET);
  const arenaEnd = bytes & ~15;
  const links = <usize>arenaEnd - <usize>nodeCount * 8;
  if (fold) positions += plainPositions;
  const rules = count + plainRules;
  const posAt = D_HEADER;
  const rulesAt = (posAt + positions * POS_SIZE + 15) & ~15;
  const hashAt = rulesAt + rules * RULE_SIZE;
  const loopHashAt = hashAt + HASH_SLOTS * 4;
  const scratchAt = loopHashAt + LOOP_SLOTS * 4;
  const packedAt = scratchAt + 4 * (positions + 1);
  const arenaAt = (packedAt + 3 * positions + 16 + 15) & ~15;
  if (positions > MAX_POSITIONS || <u64>arenaAt + DFA_MIN_ARENA > <u64>(fold ? links : bytes)) return false;

  let classes: u32 = 1;
  let p: u32 = 0;
  for (let r: u32 = 0; r < count; r++) {
    const rule = wild + <usize>r * WILDCARD_SIZE;
    const record = dfa + rulesAt + <usize>r * RULE_SIZE;
    store<i32>(record, <i32>load<u32>(rule, W_PRIORITY), U_PRIORITY);
    store<u32>(record, load<u32>(rule, W_LINE), U_LINE);
    store<u32>(record, <u32>load<u8>(rule, W_KIND), U_KIND);
    const segs = segments + <usize>load<u32>(rule, W_FIRST_SEGMENT) * SEGMENT_SIZE;
    const pieces = load<u32>(rule, W_SEGMENT_COUNT);
    for (let s: u32 = 0; s < pieces; s++) {
      const seg = segs + <usize>s * SEGMENT_SIZE;
      const at = table + load<u32>(seg, S_BYTES_OFFSET);
      const m = load<u32>(seg, S_LENGTH);
      for (let k: u32 = 0; k < m; k++) {
        const c = <u32>load<u8>(at + k);
        if ((classes = classify(dfa, c, classes)) == 0) return false;
        const pos = dfa + posAt + <usize>p * POS_SIZE;
        store<u32>(pos, r, P_RULE);
        store<u8>(pos, <u8>c, P_BYTE);
        store<u8>(pos, s == 0 ? FIRST : k == 0 ? LOOP : INNER, P_KIND);
        store<u16>(pos, <u16>s, P_PIECE);
        p++;
      }
    }
    const last = segs + <usize>(pieces - 1) * SEGMENT_SIZE;
    const pos = dfa + posAt + <usize>p * POS_SIZE;
    // `…*$` (an empty anchored piece after a `*`) accepts any rest: a MATCH.
    const final = load<u8>(rule, W_ANCHORED) != 0 && (pieces == 1 || load<u32>(last, S_LENGTH) != 0);
    store<u32>(pos, r, P_RULE);
    store<u8>(pos, final ? FINAL : MATCH, P_KIND);
    // FINAL counts as a position of the last piece, so that greedy placement keeps that
    // piece's LOOP beside it (FINAL dies at the next byte).
    store<u16>(pos, <u16>(pieces - 1), P_PIECE);
    p++;
  }
  // The plain rules as one-piece rules, node by node: the prefix rules (N_PREFIX_*) of a
  // node at depth d have priority d plus their extra (N_*_EXTRA) and end in MATCH, its
  // exact rules (N_EXACT_*) priority d + 1 and end in FINAL (format.ts), as the trie walk
  // ranks them. A rule's bytes are its node's labels from the root, written back to front
  // up the parent links: O(d).
  let r = count;
  for (let k: u32 = 0; fold && k < nodeCount; k++) {
    const node = nodes + <usize>k * NODE_SIZE;
    const depth = load<u32>(dfa + links + (<usize>k << 3));
    for (let f: u32 = 0; f < 4; f++) {
      const line = load<u32>(node + N_PREFIX_ALLOW + (f << 2));
      if (line == 0) continue;
      const exact = f >= 2;
      const record = dfa + rulesAt + <usize>r * RULE_SIZE;
      store<i32>(record, <i32>(depth + (exact ? 1 : <u32>load<u8>(node + N_ALLOW_EXTRA + f))), U_PRIORITY);
      store<u32>(record, line, U_LINE);
      store<u32>(record, (f & 1) == 0 ? KIND_ALLOW : KIND_DISALLOW, U_KIND);
      // Invariant: bytes [d_m, depth) are written, d_m the depth of node m.
      for (let m = k; m != 0;) {
        const at = nodes + <usize>m * NODE_SIZE;
        const label = table + load<u32>(at, N_LABEL_OFFSET);
        const labelLength = load<u32>(at, N_LABEL_LENGTH);
        const to = load<u32>(dfa + links + (<usize>m << 3)) - labelLength;
        for (let j: u32 = 0; j < labelLength; j++) {
          const c = <u32>load<u8>(label + j);
          if ((classes = classify(dfa, c, classes)) == 0) return false;
          const pos = dfa + posAt + <usize>(p + to + j) * POS_SIZE;
          store<u32>(pos, r, P_RULE);
          store<u8>(pos, <u8>c, P_BYTE);
          store<u8>(pos, FIRST, P_KIND);
        }
        m = load<u32>(dfa + links + (<usize>m << 3), 4);
      }
      const end = dfa + posAt + <usize>(p + depth) * POS_SIZE;
      store<u32>(end, r, P_RULE);
      store<u8>(end, exact ? FINAL : MATCH, P_KIND);
      p += depth + 1;
      r++;
    }
  }

  for (let c: u32 = 0; c < 256; c++) store<u16>(dfa + D_CLASS_AT + (c << 1), <u16>(<u32>load<u8>(dfa + D_CLASS_OF + c) << 1));
  store<u32>(dfa, classes, D_CLASS_COUNT);
  store<u32>(dfa, positions, D_POSITIONS);
  store<u32>(dfa, ((classes << 1) + 4 + 15) & ~15, D_ROW_BYTES);
  store<u32>(dfa, arenaAt, D_ROWS_AT);
  store<u32>(dfa, arenaEnd, D_ARENA_END);
  store<u32>(dfa, posAt, D_POS_AT);
  store<u32>(dfa, rulesAt, D_RULES_AT);
  store<u32>(dfa, plainRules, D_PLAIN_RULES);
  store<u32>(dfa, hashAt, D_HASH_AT);
  store<u32>(dfa, loopHashAt, D_LOOP_HASH_AT);
  store<u32>(dfa, scratchAt, D_SCRATCH_AT);
  store<u32>(dfa, packedAt, D_PACKED_AT);
  empty(dfa);
  if (count >= DFA_MIN_RULES) store<u32>(dfa, DFA_ON, D_ENABLED);
  else store<u32>(dfa, TRIAL_PATHS, D_TRIAL);
  return true;
}

/**
 * Gives byte c a class if it has none (the next one, `classes`) and returns the classes
 * then in use, or 0 when all 255 are taken. Class 0 is every byte no piece has; a table
 * whose pieces use every byte gets no DFA.
 */
@inline function classify(dfa: usize, c: u32, classes: u32): u32 {
  if (load<u8>(dfa + D_CLASS_OF + c) != 0) return classes;
  if (classes == 256) return 0;
  store<u8>(dfa + D_CLASS_OF + c, <u8>classes);
  return classes + 1;
}

/**
 * Counts one path judged rule by rule at a cost of `calls` rule matches while the region
 * at `dfa` is on trial; a window's last path turns the DFA on when its paths cost at least
 * TRIAL_CALLS_X2 / 2 matches each or the DFA holds the plain rules too (dfaFolds), or else
 * opens the next window. Verdicts are the same either way: this only chooses the cheaper
 * of two exact matchers. No overflow: a path costs fewer than DFA_MIN_RULES matches, so a
 * window fewer than 2^14.
 */
@inline export function notePath(dfa: usize, calls: u32): void {
  const left = load<u32>(dfa, D_TRIAL);
  if (left == 0) return;
  const total = load<u32>(dfa, D_TRIAL_CALLS) + calls;
  if (left > 1) {
    store<u32>(dfa, total, D_TRIAL_CALLS);
    store<u32>(dfa, left - 1, D_TRIAL);
    return;
  }
  const costly = total * 2 >= TRIAL_CALLS_X2 * TRIAL_PATHS;
  if (costly || dfaFolds(dfa)) {
    // A folded DFA also spares the trie walk: on for that alone, it goes back on trial
    // when it drops the fold (flush).
    if (!costly) store<u32>(dfa, 1, D_FOR_FOLD);
    store<u32>(dfa, 0, D_TRIAL);
    store<u32>(dfa, DFA_ON, D_ENABLED);
  } else {
    // Not yet: the next TRIAL_PATHS paths are counted afresh (a workload may change).
    store<u32>(dfa, 0, D_TRIAL_CALLS);
    store<u32>(dfa, TRIAL_PATHS, D_TRIAL);
  }
}

/** The cache without a state: no row, no meta record, no hash entry. */
function empty(dfa: usize): void {
  memory.fill(dfa + load<u32>(dfa, D_HASH_AT), 0, HASH_SLOTS * 4);
  memory.fill(dfa + load<u32>(dfa, D_LOOP_HASH_AT), 0, LOOP_SLOTS * 4);
  store<u32>(dfa, 0, D_LOOP_RECORDS);
  store<u32>(dfa, 0, D_ROWS_NEXT);
  store<u32>(dfa, load<u32>(dfa, D_ARENA_END), D_META_NEXT);
  store<u32>(dfa, 0, D_START);
  store<u32>(dfa, 0, D_PATHS);
}

/**
 * Empties the full cache of `table`'s DFA; 2 × STRIKE_LIMIT strikes (two per flush of a
 * cache that filled too fast, less one per slower flush) turn the DFA off, and so does a
 * crowd's first flush in MODE_STEP. A folded DFA is laid out again without its plain rules
 * instead (header).
 */
function flush(table: usize, dfa: usize): void {
  const flushes = load<u32>(dfa, D_FLUSHES) + 1;
  // A DFA that took the plain rules in drops them at its first flush: their matches,
  // carried in the states, multiply them (a copy of the wildcard states after each plain
  // rule a workload matches). The table is laid out again as if never folded, its DFA on
  // (a flush comes only from a scan, so the DFA was in use).
  if (dfaFolds(dfa)) {
    // The region's bytes (dfaBytesFor's, a multiple of 16: the layout's arena ends there).
    const bytes = load<u32>(dfa, D_ARENA_END);
    const forFold = load<u32>(dfa, D_FOR_FOLD) != 0;
    memory.fill(dfa, 0, bytes);
    layOut(table, dfa, bytes, 0);
    store<u32>(dfa, flushes, D_FLUSHES);
    // A trial table whose DFA was on for its fold alone is on trial again (layOut left it
    // so): its windows count afresh, and only their rule matches can turn the DFA on.
    if (forFold) return;
    store<u32>(dfa, 0, D_TRIAL);
    store<u32>(dfa, DFA_ON, D_ENABLED);
    return;
  }
  store<u32>(dfa, flushes, D_FLUSHES);
  const states = load<u32>(dfa, D_ROWS_NEXT) / load<u32>(dfa, D_ROW_BYTES);
  const before = load<u32>(dfa, D_STRIKES);
  const strikes = <u64>states * PATHS_PER_STATE > <u64>load<u32>(dfa, D_PATHS) ? before + 2 : before - min<u32>(before, 1);
  store<u32>(dfa, strikes, D_STRIKES);
  empty(dfa);
  // The first flush turns MODE_CARRY into MODE_STEP: its workload outgrew the cache, and
  // MODE_STEP's states do not multiply by the bests (header).
  if (load<u32>(dfa, D_MODE) == MODE_CARRY) {
    store<u32>(dfa, MODE_STEP, D_MODE);
    store<u32>(dfa, 0, D_STRIKES);
    return;
  }
  // A crowd gives up at its first flush in MODE_STEP: its workload outgrew the cache, and
  // the automaton that takes over (match.ts) needs none (europa.eu's crowd flushed every
  // 20,000 paths without a strike, at 1.2–1.4× the automaton's cost).
  if (strikes >= 2 * STRIKE_LIMIT || (<u32>load<u16>(table, H_FLAGS) & FLAG_WILDCARD_AUTOMATON) != 0) store<u32>(dfa, 0, D_ENABLED);
}

/** The meta record of the state whose row is at offset s from the rows. */
@inline function metaOf(dfa: usize, s: usize): usize {
  return dfa + load<u32>(dfa + load<u32>(dfa, D_ROWS_AT) + s + load<u32>(dfa, D_ROW_BYTES) - 4);
}

/** Whether the rule whose record (RULE) is at `rule` can still change the bests (MODE_CARRY): see the header's pruning. */
@inline function useful(rule: usize): bool {
  const prio = load<i32>(rule, U_PRIORITY);
  const line = load<u32>(rule, U_LINE);
  const allowPrio = load<i32>(BUILT);
  const disallowPrio = load<i32>(BUILT, 8);
  if (load<u32>(rule, U_KIND) == KIND_ALLOW) {
    return !(prio < disallowPrio || prio < allowPrio || (prio == allowPrio && line >= load<u32>(BUILT, 4)));
  }
  return !(prio <= allowPrio || prio < disallowPrio || (prio == disallowPrio && line >= load<u32>(BUILT, 12)));
}

/**
 * Records a match of the rule whose record (RULE) is at `rule` in BUILT: priority, then
 * the earliest line, as match.ts ranks rules.
 */
function record(rule: usize): void {
  const prio = load<i32>(rule, U_PRIORITY);
  const line = load<u32>(rule, U_LINE);
  rankInto(BUILT + (load<u32>(rule, U_KIND) == KIND_ALLOW ? 0 : 8), prio, line);
}

/** Empties the record at `at` (no match of either kind). */
@inline function clearRecord(at: usize): void {
  store<i64>(at, 0xffffffff);
  store<i64>(at, 0xffffffff, 8);
}

/** Packs distance d at `at` (header, Meta): 1, 2 or 3 bytes, returned. */
@inline function packDistance(at: usize, d: u32): u32 {
  if (d < 0x80) {
    store<u8>(at, <u8>d);
    return 1;
  }
  if (d < 0x4000) {
    store<u8>(at, <u8>(0x80 | (d >> 8)));
    store<u8>(at, <u8>d, 1);
    return 2;
  }
  store<u8>(at, 0xc0);
  store<u8>(at, <u8>(d >> 8), 1);
  store<u8>(at, <u8>d, 2);
  return 3;
}

/** Bytes the last `unpackDistance` read. */
let unpackedWidth: u32 = 0;

/** The distance packed at `at` (packDistance), its width in unpackedWidth. */
@inline function unpackDistance(at: usize): u32 {
  const b = <u32>load<u8>(at);
  if (b < 0x80) {
    unpackedWidth = 1;
    return b;
  }
  if (b < 0xc0) {
    unpackedWidth = 2;
    return ((b & 0x3f) << 8) | <u32>load<u8>(at, 1);
  }
  unpackedWidth = 3;
  return (<u32>load<u8>(at, 1) << 8) | <u32>load<u8>(at, 2);
}

/**
 * Interns the set at `set` (n positions, ascending) with the current bests as a state's
 * record: the existing one, or a new one in the cache. Returns its transition (row offset
 * / 8, | HEED when the state is DEAD or, in MODE_STEP, holds matches), or UNKNOWN when the
 * cache is full. Drops, first, the positions that greedy placement or (MODE_CARRY) the
 * bests make useless (header), in one backward pass.
 */
function intern(table: usize, dfa: usize, set: usize, n: u32): u32 {
  const rules = dfa + load<u32>(dfa, D_RULES_AT);
  const posAt = dfa + load<u32>(dfa, D_POS_AT);
  const rows = dfa + load<u32>(dfa, D_ROWS_AT);
  // Backward: a rule's positions are contiguous and ordered by piece, so its last one
  // names the piece whose earlier siblings survive. Kept positions are packed at the end
  // of the set and moved to its start afterwards.
  const carry = carries(dfa);
  let kept = n;
  let rule: u32 = 0xffffffff;
  let piece: u32 = 0;
  let live = true;
  for (let i = n; i > 0; i--) {
    const p = <u32>load<u16>(set + (<usize>(i - 1) << 1));
    const pos = posAt + <usize>p * POS_SIZE;
    const r = load<u32>(pos, P_RULE);
    const pc = <u32>load<u16>(pos, P_PIECE);
    if (r != rule) {
      rule = r;
      piece = pc;
      live = !carry || useful(rules + <usize>r * RULE_SIZE);
    }
    if (!live || pc != piece) continue;
    kept--;
    store<u16>(set + (<usize>kept << 1), <u16>p);
  }
  const length = n - kept;
  if (kept != 0) memory.copy(set, set + (<usize>kept << 1), length << 1);

  // FNV-1a over the set and the records.
  let h: u32 = 0x811c9dc5;
  for (let i: u32 = 0; i < length; i++) h = (h ^ <u32>load<u16>(set + (<usize>i << 1))) * 0x01000193;
  for (let i: usize = 0; i < 16; i += 4) h = (h ^ load<u32>(BUILT + i)) * 0x01000193;
  // The set as stored (header, Meta): its LOOP positions apart, in a LOOPS record shared by
  // every state that holds the same ones, the rest in the state's own record; each packed
  // (distances), the rest at packed[0, bytes), the LOOPs right after them.
  const packed = dfa + load<u32>(dfa, D_PACKED_AT);
  let bytes: u32 = 0;
  let previous: u32 = 0;
  for (let i: u32 = 0; i < length; i++) {
    const p = <u32>load<u16>(set + (<usize>i << 1));
    if (<u32>load<u8>(posAt + <usize>p * POS_SIZE, P_KIND) == LOOP) continue;
    bytes += packDistance(packed + bytes, p - previous);
    previous = p;
  }
  let loopBytes: u32 = 0;
  let lh: u32 = 0x811c9dc5;
  previous = 0;
  for (let i: u32 = 0; i < length; i++) {
    const p = <u32>load<u16>(set + (<usize>i << 1));
    if (<u32>load<u8>(posAt + <usize>p * POS_SIZE, P_KIND) != LOOP) continue;
    loopBytes += packDistance(packed + bytes + loopBytes, p - previous);
    previous = p;
    lh = (lh ^ p) * 0x01000193;
  }
  // The LOOPS record of these LOOPs, if one exists (0: none, or no LOOP).
  const loopHead = dfa + load<u32>(dfa, D_LOOP_HASH_AT) + <usize>((lh & (LOOP_SLOTS - 1)) << 2);
  let loops: u32 = 0;
  if (loopBytes != 0) {
    for (let link = load<u32>(loopHead); link != 0; link = load<u32>(dfa + link, L_NEXT)) {
      const record = dfa + link;
      if (load<u32>(record, L_HASH) == lh && load<u32>(record, L_BYTES) == loopBytes && memory.compare(record + L_SET, packed + bytes, loopBytes) == 0) {
        loops = link;
        break;
      }
    }
  }
  const head = dfa + load<u32>(dfa, D_HASH_AT) + <usize>((h & (HASH_SLOTS - 1)) << 2);
  // A state with these LOOPs exists only if their record does.
  if (loopBytes == 0 || loops != 0) {
    for (let link = load<u32>(head); link != 0;) {
      const s = link - 1;
      const meta = metaOf(dfa, s);
      link = load<u32>(meta, M_NEXT);
      if (load<u32>(meta, M_HASH) != h || load<u32>(meta, M_SET_LENGTH) != bytes || load<u32>(meta, M_LOOPS) != loops) continue;
      if (memory.compare(meta + M_BESTS, BUILT, 16) != 0 || memory.compare(meta + M_SET, packed, bytes) != 0) continue;
      return (s >> 3) | (load<u32>(meta, M_FLAGS) != 0 ? HEED : 0);
    }
  }

  // A new state: its row from the front of the arena, its meta record (and a new LOOPS
  // record) from the back.
  const flags = (length == 0 ? DEAD : 0) | (!carry && (load<i32>(BUILT) >= 0 || load<i32>(BUILT, 8) >= 0) ? OUT : 0);
  const rowBytes = load<u32>(dfa, D_ROW_BYTES);
  const setBytes = (bytes + 15) & ~15;
  const loopRecord = loopBytes != 0 && loops == 0 ? (L_SET + loopBytes + 15) & ~15 : 0;
  const s = load<u32>(dfa, D_ROWS_NEXT);
  const rowsEnd = load<u32>(dfa, D_ROWS_AT) + s + rowBytes;
  const metaAt = <i64>load<u32>(dfa, D_META_NEXT) - loopRecord - M_SET - setBytes;
  if (s + rowBytes > ROWS_CAP || <i64>rowsEnd > metaAt) return UNKNOWN;
  if (loopRecord != 0) {
    loops = load<u32>(dfa, D_META_NEXT) - loopRecord;
    const record = dfa + loops;
    store<u32>(record, load<u32>(loopHead), L_NEXT);
    store<u32>(loopHead, loops);
    store<u32>(record, lh, L_HASH);
    store<u32>(record, loopBytes, L_BYTES);
    memory.copy(record + L_SET, packed + bytes, loopBytes);
    store<u32>(dfa, load<u32>(dfa, D_LOOP_RECORDS) + 1, D_LOOP_RECORDS);
  }
  const meta = dfa + <usize>metaAt;
  store<u32>(dfa, s + rowBytes, D_ROWS_NEXT);
  store<u32>(dfa, <u32>metaAt, D_META_NEXT);
  // Invariant: row[0, k) holds UNKNOWN (a DEAD state: itself, so lanes may step on). classCount stores.
  const row = rows + s;
  const classes = load<u32>(dfa, D_CLASS_COUNT);
  const fill = length == 0 ? s >> 3 : UNKNOWN;
  for (let k: u32 = 0; k < classes; k++) store<u16>(row + (<usize>k << 1), <u16>fill);
  store<u32>(row + rowBytes - 4, <u32>metaAt);
  store<u32>(meta, load<u32>(head), M_NEXT);
  store<u32>(head, s + 1);
  store<u32>(meta, h, M_HASH);
  store<u32>(meta, bytes, M_SET_LENGTH);
  store<u32>(meta, flags, M_FLAGS);
  store<u32>(meta, loops, M_LOOPS);
  memory.copy(meta + M_BESTS, BUILT, 16);
  memory.copy(meta + M_SET, packed, bytes);
  // The end verdict: the anchored rules whose last piece ends here (MODE_CARRY: and the bests).
  if (!carry) clearRecord(BUILT);
  for (let i: u32 = 0; i < length; i++) {
    const pos = posAt + <usize>load<u16>(set + (<usize>i << 1)) * POS_SIZE;
    if (<u32>load<u8>(pos, P_KIND) == FINAL) record(rules + <usize>load<u32>(pos, P_RULE) * RULE_SIZE);
  }
  memory.copy(meta + M_END, BUILT, 16);
  return (s >> 3) | (flags != 0 ? HEED : 0);
}

/** Adds position p to the set being built (after p − 1's successor, so the set stays ascending), or records the match it stands for. */
@inline function enter(rules: usize, posAt: usize, set: usize, n: u32, p: u32): u32 {
  const pos = posAt + <usize>p * POS_SIZE;
  if (<u32>load<u8>(pos, P_KIND) == MATCH) {
    record(rules + <usize>load<u32>(pos, P_RULE) * RULE_SIZE);
    return n;
  }
  if (n != 0 && <u32>load<u16>(set + (<usize>(n - 1) << 1)) == p) return n;
  store<u16>(set + (<usize>n << 1), <u16>p);
  return n + 1;
}

/** The start state (built on first use): every rule's first position. UNKNOWN when the cache is full. */
function startState(table: usize, dfa: usize): u32 {
  const rules = dfa + load<u32>(dfa, D_RULES_AT);
  const posAt = dfa + load<u32>(dfa, D_POS_AT);
  const set = dfa + load<u32>(dfa, D_SCRATCH_AT);
  const positions = load<u32>(dfa, D_POSITIONS);
  clearRecord(BUILT);
  let n: u32 = 0;
  let previous: u32 = 0xffffffff;
  // A rule's first position is the one after the previous rule's end (MATCH or FINAL).
  for (let p: u32 = 0; p < positions; p++) {
    const r = load<u32>(posAt + <usize>p * POS_SIZE, P_RULE);
    if (r == previous) continue;
    previous = r;
    n = enter(rules, posAt, set, n, p);
  }
  const t = intern(table, dfa, set, n);
  if (t != UNKNOWN) store<u32>(dfa, t | 0x10000, D_START);
  return t;
}

/**
 * Builds (or finds) the target of the state at row offset s on byte c and writes it into
 * s's row: O(|set|). Returns its transition, or UNKNOWN when the cache is full.
 */
function step(table: usize, dfa: usize, s: usize, c: u32): u32 {
  const rules = dfa + load<u32>(dfa, D_RULES_AT);
  const posAt = dfa + load<u32>(dfa, D_POS_AT);
  const set = dfa + load<u32>(dfa, D_SCRATCH_AT);
  const rows = dfa + load<u32>(dfa, D_ROWS_AT);
  const meta = metaOf(dfa, s);
  const from = meta + M_SET;
  const bytes = load<u32>(meta, M_SET_LENGTH);
  const loops = load<u32>(meta, M_LOOPS);
  const loopFrom = dfa + loops + L_SET;
  const loopBytes = loops != 0 ? load<u32>(dfa + loops, L_BYTES) : 0;
  if (carries(dfa)) memory.copy(BUILT, meta + M_BESTS, 16);
  else clearRecord(BUILT);
  // The state's positions in ascending order: its own (the rest) and its LOOPS record's,
  // merged. NONE past either's end (positions are below MAX_POSITIONS).
  let i: u32 = 0;
  let restAt: u32 = NONE;
  if (bytes != 0) { restAt = unpackDistance(from); i = unpackedWidth; }
  let j: u32 = 0;
  let loopAt: u32 = NONE;
  if (loopBytes != 0) { loopAt = unpackDistance(loopFrom); j = unpackedWidth; }
  // Invariant: set[0, n) ascending; each source position (taken in order, header Meta)
  // adds itself (a LOOP) and/or its successor, both ≥ every earlier addition. |set| ≤ 2 ×
  // the source's positions ≤ 2P. Each round takes one position: at most P rounds.
  let n: u32 = 0;
  while (restAt != NONE || loopAt != NONE) {
    let p: u32;
    if (restAt < loopAt) {
      p = restAt;
      if (i < bytes) { restAt += unpackDistance(from + i); i += unpackedWidth; } else restAt = NONE;
    } else {
      p = loopAt;
      if (j < loopBytes) { loopAt += unpackDistance(loopFrom + j); j += unpackedWidth; } else loopAt = NONE;
    }
    const pos = posAt + <usize>p * POS_SIZE;
    const kind = <u32>load<u8>(pos, P_KIND);
    if (kind == LOOP) n = enter(rules, posAt, set, n, p);
    if (kind != FINAL && <u32>load<u8>(pos, P_BYTE) == c) n = enter(rules, posAt, set, n, p + 1);
  }
  const target = intern(table, dfa, set, n);
  // The cache may have been full: then s's row is stale, and the caller flushes it.
  if (target != UNKNOWN) store<u16>(rows + s + <usize>load<u16>(dfa + D_CLASS_AT + (c << 1)), <u16>target);
  return target;
}

/**
 * Runs path[0, len) through the DFA: true with the path's verdict in entry 0 of PATH_ENDS,
 * or false when the path must be judged rule by rule (MISS_BUDGET spent, the cache full
 * twice, or the DFA given up). One load per byte while states are cached.
 */
export function scanDfa(table: usize, dfa: usize, path: usize, len: u32): bool {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!dfaEnabled(dfa)) return false;
    store<u32>(dfa, load<u32>(dfa, D_PATHS) + 1, D_PATHS);
    const start = load<u32>(dfa, D_START);
    const t = start != 0 ? start & 0xffff : startState(table, dfa);
    if (t == UNKNOWN) { flush(table, dfa); continue; }
    const first = <usize>(t & ~HEED) << 3;
    const carry = carries(dfa);
    beginPath(dfa, first, 0, carry);
    const end = isDead(dfa, first) ? first : run(table, dfa, first, path, len, 0, 0);
    if (end == RUN_FULL) { flush(table, dfa); continue; }
    if (end == RUN_BUDGET) return false;
    endPath(dfa, end, 0, carry);
    return true;
  }
  return false;
}

/** `run`'s answers besides a row offset: the cache filled up, or the path spent MISS_BUDGET. */
const RUN_FULL: usize = <usize>-1;
const RUN_BUDGET: usize = <usize>-2;

/**
 * Steps path `id` from the state at row offset s over path[0, len), its matches merged into
 * PATH_ENDS[id]: returns the row of the state reached (or of the DEAD state that stopped
 * it), RUN_FULL or RUN_BUDGET. `misses` states were already built for this path.
 */
function run(table: usize, dfa: usize, s: usize, path: usize, len: u32, misses: u32, id: u32): usize {
  const rows = dfa + load<u32>(dfa, D_ROWS_AT);
  const classAt = dfa + D_CLASS_AT;
  const carry = carries(dfa);
  // Invariant: s is the state of path[0, i). At most len steps: one load each while
  // cached, else one `step` (O(P)), at most MISS_BUDGET of those per path.
  for (let i: u32 = 0; i < len; i++) {
    const c = <u32>load<u8>(path + i);
    let t = <u32>load<u16>(rows + s + <usize>load<u16>(classAt + (c << 1)));
    if ((t & HEED) != 0) {
      if (t == UNKNOWN) {
        if (++misses > MISS_BUDGET) return RUN_BUDGET;
        t = step(table, dfa, s, c);
        if (t == UNKNOWN) return RUN_FULL;
      }
      if (arrive(dfa, t, id, carry) != 0) return <usize>(t & ~HEED) << 3;
    }
    s = <usize>(t & ~HEED) << 3;
  }
  return s;
}

/**
 * Paths one `scanDfaQueue` call takes at most. Its last three paths end one at a time,
 * each a chain of dependent loads: with 32 a call, those tails cost the DFA tables of the
 * sweep 3–5% (bench/compare.mjs, 256 against 32: geometric means 0.950 for 32+ rules,
 * 0.968 on trial, 0.964 for crowds).
 */
export const QUEUE_CAP: u32 = 256;

/** DECIDED[k] is 1 when the last `scanDfaQueue` left path k's verdict in PATH_ENDS[k], else 0. */
export const DECIDED: usize = memory.data(QUEUE_CAP, 16);

/**
 * The verdict of each path of the last `scanDfaQueue` (of the last `scanDfa`: entry 0),
 * its best allow and disallow (i32 allowPrio, u32 allowLine, i32 disallowPrio, u32
 * disallowLine; -1 / 0: none): the matches of its steps, then of its end state.
 */
export const PATH_ENDS: usize = memory.data(16 * QUEUE_CAP, 16);

/** Merges the bests at `from` (PATH_ENDS's record) into entry k of PATH_ENDS, ranked as match.ts ranks rules. */
function mergeBests(from: usize, k: u32): void {
  const to = PATH_ENDS + (<usize>k << 4);
  rankInto(to, load<i32>(from), load<u32>(from, 4));
  rankInto(to + 8, load<i32>(from, 8), load<u32>(from, 12));
}

/**
 * Path k starts in the start state at row offset s: in MODE_STEP its entry of PATH_ENDS
 * takes the start's matches (in MODE_CARRY the end state's record holds every match).
 */
@inline function beginPath(dfa: usize, s: usize, k: u32, carry: bool): void {
  if (carry) return;
  memory.copy(PATH_ENDS + (<usize>k << 4), metaOf(dfa, s) + M_BESTS, 16);
}

/**
 * Path k ended in the state at row offset s: its end record (MODE_CARRY: the path's bests;
 * MODE_STEP: the anchored rules that end there) goes to entry k of PATH_ENDS.
 */
@inline function endPath(dfa: usize, s: usize, k: u32, carry: bool): void {
  const end = metaOf(dfa, s) + M_END;
  if (carry) memory.copy(PATH_ENDS + (<usize>k << 4), end, 16);
  else mergeBests(end, k);
}

/** Whether the region's states carry the bests so far (MODE_CARRY), else the matches of a step (MODE_STEP). */
@inline function carries(dfa: usize): bool {
  return load<u32>(dfa, D_MODE) == MODE_CARRY;
}

/** Whether the state at row offset s is DEAD. */
@inline function isDead(dfa: usize, s: usize): bool {
  return (load<u32>(metaOf(dfa, s), M_FLAGS) & DEAD) != 0;
}

/**
 * Path k steps into transition t's target: when t has HEED, the target's matches (OUT)
 * join entry k of PATH_ENDS; returns DEAD when the target is DEAD, else 0. Off the hot
 * loop: a path meets HEED about once (its matches, its DEAD end); in MODE_CARRY, HEED
 * only marks DEAD targets.
 */
@inline function arrive(dfa: usize, t: u32, k: u32, carry: bool): u32 {
  if ((t & HEED) == 0) return 0;
  if (carry) return DEAD;
  const meta = metaOf(dfa, <usize>(t & ~HEED) << 3);
  const flags = load<u32>(meta, M_FLAGS);
  if ((flags & OUT) != 0) mergeBests(meta + M_BESTS, k);
  return flags & DEAD;
}

/**
 * scanDfaQueue's byte → address table: for byte c, the address of c's transition in the
 * row at offset 0 (rows + classAt[c], u32), at a static address that the loads carry as
 * their offset. A step then adds the state's row offset (transition × 8) to it: one
 * address computation, which the compiler folds into a scaled `lea`.
 */
const CLASS_ROWS: usize = memory.data(1024, 16);

/** Fills CLASS_ROWS for the rows at `rows` from the region's classAt at `classAt` (u16, 256 entries): 32 vector steps. */
function fillClassRows(classAt: usize, rows: usize): void {
  const base = i32x4.splat(<i32>rows);
  for (let c: usize = 0; c < 256; c += 8) {
    const offsets = v128.load(classAt + (c << 1));
    v128.store(CLASS_ROWS + (c << 2), i32x4.add(i32x4.extend_low_i16x8_u(offsets), base));
    v128.store(CLASS_ROWS + (c << 2), i32x4.add(i32x4.extend_high_i16x8_u(offsets), base), 16);
  }
}

/**
 * Reads path[0, left) of path `id` (< QUEUE_CAP) on its own from the state at row offset
 * s, `misses` states already built for it: its verdict goes to PATH_ENDS[id] and
 * DECIDED[id] (left 0 when it spent MISS_BUDGET). False when the cache filled up:
 * nothing more can be read.
 */
function readAlone(table: usize, dfa: usize, s: usize, path: usize, left: u32, misses: u32, id: u32): bool {
  const e = run(table, dfa, s, path, left, misses, id);
  if (e == RUN_FULL) return false;
  if (e == RUN_BUDGET) return true;
  endPath(dfa, e, id, carries(dfa));
  store<u8>(DECIDED + id, 1);
  return true;
}

/**
 * Runs LANES ≤ n ≤ QUEUE_CAP paths (paths[k], lens[k]: u32 arrays) through the DFA, LANES
 * at a time (fewer are judged alone: match.ts decideQueued): DECIDED[k] is set to 1 when
 * path k's verdict is in PATH_ENDS[k], else 0. A path left at 0 (it spent MISS_BUDGET, or
 * the cache filled up, after which no path is read further) must be judged on its own.
 * Each step advances four paths, whose
 * loads do not depend on each other; a lane whose path ended or went DEAD takes the next
 * path, so that the lanes stay busy until fewer than LANES paths are left, which then end
 * one at a time as `scanDfa` reads a path.
 */
export function scanDfaQueue(table: usize, dfa: usize, paths: usize, lens: usize, n: u32): void {
  memory.fill(DECIDED, 0, n);
  if (!dfaEnabled(dfa)) return;
  const start = load<u32>(dfa, D_START);
  const t = start != 0 ? start & 0xffff : startState(table, dfa);
  if (t == UNKNOWN) return;
  store<u32>(dfa, load<u32>(dfa, D_PATHS) + n, D_PATHS);
  const first = <usize>(t & ~HEED) << 3;
  const carry = carries(dfa);
  if (isDead(dfa, first)) {
    for (let k: u32 = 0; k < n; k++) { beginPath(dfa, first, k, carry); endPath(dfa, first, k, carry); }
    memory.fill(DECIDED, 1, n);
    return;
  }
  const rows = dfa + load<u32>(dfa, D_ROWS_AT);
  const classAt = dfa + D_CLASS_AT;
  fillClassRows(classAt, rows);
  // Lane j reads path id_j: its next byte at p_j, r_j bytes left, in state s_j, m_j states
  // built for it; bit j of `live`: the lane still has a path.
  let id0: u32 = 0, id1: u32 = 1, id2: u32 = 2, id3: u32 = 3;
  let p0 = <usize>load<u32>(paths), p1 = <usize>load<u32>(paths, 4), p2 = <usize>load<u32>(paths, 8), p3 = <usize>load<u32>(paths, 12);
  let r0 = load<u32>(lens), r1 = load<u32>(lens, 4), r2 = load<u32>(lens, 8), r3 = load<u32>(lens, 12);
  let s0 = first, s1 = first, s2 = first, s3 = first;
  let m0: u32 = 0, m1: u32 = 0, m2: u32 = 0, m3: u32 = 0;
  for (let k: u32 = 0; k < LANES; k++) beginPath(dfa, first, k, carry);
  let live: u32 = 15;
  let k: u32 = LANES;
  // Invariant: paths [0, k) were given to lanes, each read up to its lane's p_j. A round
  // steps the four lanes `steps` times (the fewest bytes a lane has left; fewer when a lane
  // goes DEAD or spends MISS_BUDGET), then each lane whose path is decided takes path k. A
  // round decides at least one path, so at most n rounds; each byte is read once.
  while (live == 15) {
    const steps = min(min(r0, r1), min(r2, r3));
    // Bit j: lane j went DEAD; bit 4 + j as well: it spent MISS_BUDGET (no verdict).
    let ended: u32 = 0;
    let i: u32 = 0;
    while (true) {
      // The steps without HEED: no call, and nothing the slow path below needs is kept,
      // so the compiled loop holds the lanes' states and pointers in registers instead of
      // storing them to the stack at every step. A lane's state is held as its transition
      // u_j (row offset / 8), and a step's address is CLASS_ROWS[byte] + u_j × 8: one
      // scaled add, no separate shift or add of `rows`.
      // Invariant: each lane has read its path's bytes [0, i) of this round; at most
      // `steps` iterations over the round, since i only grows.
      let u0 = <u32>(s0 >> 3), u1 = <u32>(s1 >> 3), u2 = <u32>(s2 >> 3), u3 = <u32>(s3 >> 3);
      while (i < steps) {
        const t0 = <u32>load<u16>(<usize>load<u32>(<usize>load<u8>(p0 + i) << 2, CLASS_ROWS) + (<usize>u0 << 3));
        const t1 = <u32>load<u16>(<usize>load<u32>(<usize>load<u8>(p1 + i) << 2, CLASS_ROWS) + (<usize>u1 << 3));
        const t2 = <u32>load<u16>(<usize>load<u32>(<usize>load<u8>(p2 + i) << 2, CLASS_ROWS) + (<usize>u2 << 3));
        const t3 = <u32>load<u16>(<usize>load<u32>(<usize>load<u8>(p3 + i) << 2, CLASS_ROWS) + (<usize>u3 << 3));
        if (((t0 | t1 | t2 | t3) & HEED) != 0) break;
        u0 = t0;
        u1 = t1;
        u2 = t2;
        u3 = t3;
        i++;
      }
      s0 = <usize>u0 << 3;
      s1 = <usize>u1 << 3;
      s2 = <usize>u2 << 3;
      s3 = <usize>u3 << 3;
      if (i == steps) break;
      // Byte i has a HEED transition in some lane: read again. An UNKNOWN target is built
      // (a full cache ends the call); a lane that meets matches records them, and one that
      // went DEAD or spent its budget ends the round.
      const c0 = <u32>load<u8>(p0 + i);
      const c1 = <u32>load<u8>(p1 + i);
      const c2 = <u32>load<u8>(p2 + i);
      const c3 = <u32>load<u8>(p3 + i);
      let t0 = <u32>load<u16>(rows + s0 + <usize>load<u16>(classAt + (c0 << 1)));
      let t1 = <u32>load<u16>(rows + s1 + <usize>load<u16>(classAt + (c1 << 1)));
      let t2 = <u32>load<u16>(rows + s2 + <usize>load<u16>(classAt + (c2 << 1)));
      let t3 = <u32>load<u16>(rows + s3 + <usize>load<u16>(classAt + (c3 << 1)));
      i++;
      if (t0 == UNKNOWN) { if (++m0 > MISS_BUDGET) { t0 = <u32>(s0 >> 3); ended |= 0x11; } else if ((t0 = step(table, dfa, s0, c0)) == UNKNOWN) return; }
      if (t1 == UNKNOWN) { if (++m1 > MISS_BUDGET) { t1 = <u32>(s1 >> 3); ended |= 0x22; } else if ((t1 = step(table, dfa, s1, c1)) == UNKNOWN) return; }
      if (t2 == UNKNOWN) { if (++m2 > MISS_BUDGET) { t2 = <u32>(s2 >> 3); ended |= 0x44; } else if ((t2 = step(table, dfa, s2, c2)) == UNKNOWN) return; }
      if (t3 == UNKNOWN) { if (++m3 > MISS_BUDGET) { t3 = <u32>(s3 >> 3); ended |= 0x88; } else if ((t3 = step(table, dfa, s3, c3)) == UNKNOWN) return; }
      // MODE_CARRY: HEED marks DEAD targets only, so the four bits are the lanes that ended.
      if (carry) ended |= (t0 & HEED) | ((t1 & HEED) << 1) | ((t2 & HEED) << 2) | ((t3 & HEED) << 3);
      else ended |= arrive(dfa, t0, id0, carry) | (arrive(dfa, t1, id1, carry) << 1) | (arrive(dfa, t2, id2, carry) << 2) | (arrive(dfa, t3, id3, carry) << 3);
      s0 = <usize>(t0 & ~HEED) << 3;
      s1 = <usize>(t1 & ~HEED) << 3;
      s2 = <usize>(t2 & ~HEED) << 3;
      s3 = <usize>(t3 & ~HEED) << 3;
      if (ended != 0) break;
    }
    p0 += i; p1 += i; p2 += i; p3 += i;
    r0 -= i; r1 -= i; r2 -= i; r3 -= i;
    // A lane whose path is decided records it and takes the next one, if any.
    if (r0 == 0 || (ended & 1) != 0) {
      if ((ended & 0x10) == 0) { endPath(dfa, s0, id0, carry); store<u8>(DECIDED + id0, 1); }
      if (k < n) { id0 = k; p0 = <usize>load<u32>(paths + (<usize>k << 2)); r0 = load<u32>(lens + (<usize>k << 2)); s0 = first; m0 = 0; beginPath(dfa, first, k, carry); k++; } else live &= ~1;
    }
    if (r1 == 0 || (ended & 2) != 0) {
      if ((ended & 0x20) == 0) { endPath(dfa, s1, id1, carry); store<u8>(DECIDED + id1, 1); }
      if (k < n) { id1 = k; p1 = <usize>load<u32>(paths + (<usize>k << 2)); r1 = load<u32>(lens + (<usize>k << 2)); s1 = first; m1 = 0; beginPath(dfa, first, k, carry); k++; } else live &= ~2;
    }
    if (r2 == 0 || (ended & 4) != 0) {
      if ((ended & 0x40) == 0) { endPath(dfa, s2, id2, carry); store<u8>(DECIDED + id2, 1); }
      if (k < n) { id2 = k; p2 = <usize>load<u32>(paths + (<usize>k << 2)); r2 = load<u32>(lens + (<usize>k << 2)); s2 = first; m2 = 0; beginPath(dfa, first, k, carry); k++; } else live &= ~4;
    }
    if (r3 == 0 || (ended & 8) != 0) {
      if ((ended & 0x80) == 0) { endPath(dfa, s3, id3, carry); store<u8>(DECIDED + id3, 1); }
      if (k < n) { id3 = k; p3 = <usize>load<u32>(paths + (<usize>k << 2)); r3 = load<u32>(lens + (<usize>k << 2)); s3 = first; m3 = 0; beginPath(dfa, first, k, carry); k++; } else live &= ~8;
    }
  }
  // Fewer than LANES paths left: each live lane finishes alone.
  if ((live & 1) != 0 && !readAlone(table, dfa, s0, p0, r0, m0, id0)) return;
  if ((live & 2) != 0 && !readAlone(table, dfa, s1, p1, r1, m1, id1)) return;
  if ((live & 4) != 0 && !readAlone(table, dfa, s2, p2, r2, m2, id2)) return;
  if ((live & 8) != 0) readAlone(table, dfa, s3, p3, r3, m3, id3);
}

/**
 * A diagnostic of the region at `dfa`: the states in its cache (`what` 0), its flushes so
 * far (1), whether it is in use (2: 1, or 0 when never built, on trial or given up), the
 * paths its trial's window still counts (3), the rule matches it counted so far (4), its
 * mode (5: MODE_CARRY 0, MODE_STEP 1), the plain rules it took in (6: 0 when none,
 * `dfaFolds`), the region's bytes (7) and the LOOPS records in its cache (8). 0 without one.
 */
export function dfaInfo(dfa: usize, what: u32): u32 {
  if (load<u32>(dfa, D_ROWS_AT) == 0) return 0;
  if (what == 1) return load<u32>(dfa, D_FLUSHES);
  if (what == 2) return load<u32>(dfa, D_ENABLED);
  if (what == 3) return load<u32>(dfa, D_TRIAL);
  if (what == 4) return load<u32>(dfa, D_TRIAL_CALLS);
  if (what == 5) return load<u32>(dfa, D_MODE);
  if (what == 6) return load<u32>(dfa, D_PLAIN_RULES);
  if (what == 7) return load<u32>(dfa, D_ARENA_END);
  if (what == 8) return load<u32>(dfa, D_LOOP_RECORDS);

  return load<u32>(dfa, D_ROWS_NEXT) / load<u32>(dfa, D_ROW_BYTES);
}
