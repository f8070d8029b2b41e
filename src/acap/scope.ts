// ACAP §2.4.5 conflict resolution: which of several matching fields has the narrowest scope.
import { asciiLower } from '../parse/groups.js';
import type { AcapQualifier, AcapRule } from './model.js';

/**
 * Compares two resource path patterns by the method of §2.4.5, case-insensitively (§2.8).
 * Returns 1 when `a` has the narrower scope, -1 when `b` has, 0 when the method cannot
 * tell (two different ordinary characters at the first difference, or equal patterns).
 *
 * Walking both patterns from the left while the characters are the same:
 * - "If one pattern has run out of characters, the other pattern has the narrower scope."
 * - "If one pattern contains a dollar sign $ where the other pattern contains any other
 *   character (including the asterisk *), the other pattern has the narrower scope."
 * - "If one pattern contains an asterisk * where the other pattern contains any other
 *   character except the dollar sign $, the other pattern has the narrower scope."
 * This is a strict partial order (lexicographic over end < `$` < `*` < any ordinary
 * character, ordinary characters mutually incomparable), so a set of patterns always has
 * at least one pattern that no other is narrower than.
 * @example
 * compareScope('/news/2007/', '/news/'); // 1
 * compareScope('/a$', '/a');             // 1 (the shorter one ran out)
 * compareScope('/a*', '/ab');            // -1
 * compareScope('/a*x', '/a*y');          // 0
 */
export function compareScope(a: string, b: string): -1 | 0 | 1 {
  const x = asciiLower(a);
  const y = asciiLower(b);
  for (let i = 0; ; i++) {
    const endA = i >= x.length;
    const endB = i >= y.length;
    if (endA && endB) return 0;
    if (endA) return -1;
    if (endB) return 1;
    const ca = x[i]!;
    const cb = y[i]!;
    if (ca === cb) continue;
    if (ca === '$') return -1;
    if (cb === '$') return 1;
    if (ca === '*') return -1;
    if (cb === '*') return 1;
    return 0;
  }
}

/**
 * The verdict conflict resolution reaches for one usage and resource.
 * @example
 * const r: Resolution = { allowed: false, line: 4, qualifiers: [] };
 */
export interface Resolution {
  readonly allowed: boolean;
  readonly line: number;
  readonly qualifiers: readonly AcapQualifier[];
}

/**
 * Decides among the rules that match one resource for one usage (`candidates` non-empty).
 * The rules with the narrowest scope (those no other candidate is narrower than, §2.4.5)
 * decide:
 * - one narrowest rule: it applies, the others are ignored;
 * - several narrowest rules that agree (the same pattern written twice, or patterns the
 *   method cannot order): that verdict, the earliest line, and for a permission the
 *   qualifiers of all of them (each one restricts the same usage);
 * - several narrowest rules that disagree: "the usage is prohibited on that resource"
 *   (§2.4.5), reported at the earliest such prohibition.
 * Qualifiers take no part in the choice ("Qualifiers are ignored when resolving conflicts").
 * @example
 * resolveConflict([
 *   { allow: false, usage: 'crawl', pattern: '/', patternId: 0, qualifiers: [], line: 2 },
 *   { allow: true, usage: 'crawl', pattern: '/public/', patternId: 1, qualifiers: [], line: 3 },
 * ]); // { allowed: true, line: 3, qualifiers: [] }
 */
export function resolveConflict(candidates: readonly AcapRule[]): Resolution {
  const narrowest = narrowestRules(candidates);
  const allows = narrowest.filter((r) => r.allow);
  if (allows.length === narrowest.length) {
    const qualifiers: AcapQualifier[] = [];
    const seen = new Set<string>();
    for (const r of allows) {
      for (const q of r.qualifiers) {
        if (!seen.has(q.text)) qualifiers.push(q);
        seen.add(q.text);
      }
    }
    return { allowed: true, line: earliestLine(allows), qualifiers };
  }
  return { allowed: false, line: earliestLine(narrowest.filter((r) => !r.allow)), qualifiers: [] };
}

function earliestLine(rules: readonly AcapRule[]): number {
  let line = Infinity;
  for (const r of rules) if (r.line < line) line = r.line;
  return line;
}

/** A trie node over lowercased patterns, with the kinds of characters its children start with. */
interface ScopeNode {
  readonly children: Map<string, ScopeNode>;
  dollar: boolean;
  star: boolean;
  ordinary: boolean;
}

function scopeNode(): ScopeNode {
  return { children: new Map(), dollar: false, star: false, ordinary: false };
}

/**
 * The rules no other rule is narrower than, by {@link compareScope}, in time linear in the
 * total pattern length (a pairwise filter would be quadratic in the number of matching
 * rules, which a hostile file can make large).
 *
 * Why a trie gives the same answer: q is narrower than p exactly when, at the first
 * position where they differ, q has a character of higher rank (end < `$` < `*` <
 * ordinary; two ordinary characters are incomparable). With all patterns in one trie,
 * that position is a node on p's path, and q is any pattern through a sibling branch. So
 * p is narrowest iff at every node on its path no sibling branch outranks p's own: p
 * ends at a node with children, or p's `$` meets a `*` or ordinary sibling, or p's `*`
 * meets an ordinary sibling, and otherwise p survives.
 * @example
 * narrowestRules(rules).map((r) => r.pattern); // ['/news/2007/'] for '/', '/news/', '/news/2007/'
 */
export function narrowestRules(candidates: readonly AcapRule[]): AcapRule[] {
  if (candidates.length <= 1) return candidates.slice();
  const mask = narrowestMask(candidates.map((c) => c.pattern));
  return candidates.filter((_, i) => mask[i]);
}

/**
 * For each pattern, whether no other pattern of the list is narrower (by
 * {@link compareScope}); the trie method of {@link narrowestRules}, on patterns alone.
 * @example
 * narrowestMask(['/', '/news/', '/news/2007/']); // [false, false, true]
 */
export function narrowestMask(patterns: readonly string[]): boolean[] {
  if (patterns.length <= 1) return patterns.map(() => true);
  const root = scopeNode();
  const lowered = patterns.map((p) => asciiLower(p));
  for (const p of lowered) {
    let node = root;
    for (const ch of p) {
      if (ch === '$') node.dollar = true;
      else if (ch === '*') node.star = true;
      else node.ordinary = true;
      let next = node.children.get(ch);
      if (next === undefined) {
        next = scopeNode();
        node.children.set(ch, next);
      }
      node = next;
    }
  }
  return lowered.map((pattern) => {
    let node = root;
    // Invariant: every node before `node` on this path had no sibling outranking the path.
    for (const ch of pattern) {
      if (ch === '$' ? node.star || node.ordinary : ch === '*' && node.ordinary) return false;
      node = node.children.get(ch)!;
    }
    return node.children.size === 0;
  });
}
