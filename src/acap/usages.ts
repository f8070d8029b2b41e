// ACAP usage names (§2.5): recognition, the `present` family, and which qualifiers each usage takes.
import { ACAP_USAGES, type AcapQualifierType, type AcapUsage } from './model.js';

const USAGE_SET: ReadonlySet<string> = new Set(ACAP_USAGES);

/**
 * The ACAP usage named by `name` (compared case-insensitively, §3), or null.
 * @example
 * toUsage('Present-Snippet'); // 'present-snippet'
 * toUsage('present-extract'); // null (removed in ACAP 1.0)
 */
export function toUsage(name: string): AcapUsage | null {
  const lower = name.toLowerCase();
  return USAGE_SET.has(lower) ? (lower as AcapUsage) : null;
}

/**
 * Whether `value` is an ACAP 1.0 usage name exactly as the API spells it (lowercase).
 * @example
 * isAcapUsage('index'); // true
 * isAcapUsage('Index'); // false
 */
export function isAcapUsage(value: unknown): value is AcapUsage {
  return typeof value === 'string' && USAGE_SET.has(value);
}

/**
 * The usages whose fields can decide `usage`, most specific first:
 * - a `present-*` usage is decided by its own fields, else by `present` fields (§2.5.5:
 *   `present` is "a general permission or prohibition to present … in any way");
 * - every usage but `other` is finally decided by `other` fields (§2.5.6: "blanket
 *   prohibition of usages other than those that are explicitly permitted").
 * @example
 * decidingUsages('present-snippet'); // ['present-snippet', 'present', 'other']
 * decidingUsages('crawl'); // ['crawl', 'other']
 */
export function decidingUsages(usage: AcapUsage): readonly AcapUsage[] {
  if (usage === 'other') return ['other'];
  if (usage.startsWith('present-')) return [usage, 'present', 'other'];
  return [usage, 'other'];
}

const PRESENT_ALL: readonly AcapUsage[] = ACAP_USAGES.filter((u) => u === 'present' || u.startsWith('present-'));
const PRESENT_COPIES: readonly AcapUsage[] = ['present', 'present-original', 'present-currentcopy', 'present-oldcopy'];
const COPIES_ONLY: readonly AcapUsage[] = ['present-original', 'present-currentcopy', 'present-oldcopy'];

/**
 * Which usages each qualifier may restrict (§2.4.1.2: "only usages based upon index,
 * preserve and present may be qualified"):
 * - time-limit: index (§2.5.3.1), preserve (§2.5.4.1), present and derivatives (§2.5.5.2.1);
 * - must-use-resource: index (§2.5.3.2), present and derivatives (§2.5.5.2.2);
 * - max-length: present-snippet, present-oldsnippet (§2.5.5.2.3);
 * - prohibited-modification: present, present-original/currentcopy/oldcopy (§2.5.5.2.4);
 * - must-include-resource: present and derivatives (§2.5.5.2.5);
 * - prohibited-context, required-context: present-original/currentcopy/oldcopy (§2.5.5.2.6-7).
 */
const QUALIFIER_USAGES: Readonly<Record<AcapQualifierType, readonly AcapUsage[]>> = {
  'time-limit': ['index', 'preserve', ...PRESENT_ALL],
  'must-use-resource': ['index', ...PRESENT_ALL],
  'max-length': ['present-snippet', 'present-oldsnippet'],
  'prohibited-modification': PRESENT_COPIES,
  'must-include-resource': PRESENT_ALL,
  'prohibited-context': COPIES_ONLY,
  'required-context': COPIES_ONLY,
};

/**
 * Whether qualifier `type` may restrict `usage` (§2.5).
 * @example
 * qualifierAllowed('max-length', 'present-snippet'); // true
 * qualifierAllowed('max-length', 'index'); // false
 */
export function qualifierAllowed(type: AcapQualifierType, usage: AcapUsage): boolean {
  return QUALIFIER_USAGES[type].includes(usage);
}

/**
 * The usages qualifier `type` may restrict, for messages.
 * @example
 * usagesForQualifier('prohibited-context'); // ['present-original', 'present-currentcopy', 'present-oldcopy']
 */
export function usagesForQualifier(type: AcapQualifierType): readonly AcapUsage[] {
  return QUALIFIER_USAGES[type];
}

/**
 * §3 `name-start-char *name-char`: ALPHA, then ALPHA / DIGIT / "-" / "_" / ".". Used for
 * local usage names and resource set names.
 * @example
 * isAcapName('present-30-word-snippet'); // true
 * isAcapName('30-days'); // false
 */
export function isAcapName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const alpha = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
    if (i === 0 ? !alpha : !(alpha || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c === 0x2e)) return false;
  }
  return true;
}
