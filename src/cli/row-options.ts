// The ROW_* options, TABLE_* codes and agent keys a CLI job hands to Wasm's row formatter (src/wasm/, assembly/index.ts formatSpans, formatSpansMulti).
import type { Profile } from '../parse/lexer.js';
import { profileFlags } from '../rules/compile.js';
import {
  ROW_JSONL, ROW_ONLY_ALLOWED, ROW_ONLY_DISALLOWED, ROW_OUTCOME, ROW_UNAVAILABLE, ROW_UNREACHABLE, TABLE_NONE, TABLE_UNAVAILABLE,
  TABLE_UNREACHABLE,
} from '../wasm/index.js';
import type { RobotsFetchStatus } from '../fetch/index.js';

/** How rows are written and which are kept. */
export interface RowFormat {
  readonly format: 'tsv' | 'jsonl';
  /** Keep only these verdicts (`--only`); null keeps every row. */
  readonly only: 'allowed' | 'disallowed' | null;
}

/**
 * The ROW_* options (src/table/abi.ts) that write `job`'s format and keep its `--only` rows.
 * @example rowOptions({ format: 'jsonl', only: null }) // ROW_JSONL
 */
export function rowOptions(job: RowFormat): number {
  let options = job.format === 'jsonl' ? ROW_JSONL : 0;
  if (job.only === 'allowed') options |= ROW_ONLY_ALLOWED;
  else if (job.only === 'disallowed') options |= ROW_ONLY_DISALLOWED;
  return options;
}

/**
 * The ROW_* options that mark rows as decided by a fetched robots.txt with this outcome
 * (RFC 9309 §2.3.1): JSONL rows get an `"outcome"` field; unavailable and unreachable
 * rows get line 0, since the allow-all / disallow-all rules standing in have no file.
 * @example fetchedRowOptions('unreachable') // ROW_OUTCOME | ROW_UNREACHABLE
 */
export function fetchedRowOptions(outcome: RobotsFetchStatus): number {
  if (outcome === 'unreachable') return ROW_OUTCOME | ROW_UNREACHABLE;
  return outcome === 'unavailable' ? ROW_OUTCOME | ROW_UNAVAILABLE : ROW_OUTCOME;
}

/**
 * The negative table id (src/table/abi.ts TABLE_*) for a robots.txt that was not fetched `ok`,
 * or for none at all (null): the line gets line 0 and the outcome's verdict.
 * @example tableCode('unreachable') // TABLE_UNREACHABLE: disallowed, RFC 9309 §2.3.1.4
 */
export function tableCode(outcome: 'unavailable' | 'unreachable' | null): number {
  if (outcome === 'unreachable') return TABLE_UNREACHABLE;
  return outcome === 'unavailable' ? TABLE_UNAVAILABLE : TABLE_NONE;
}

/**
 * The bits formatSpanRows reads for lines without a table (assembly/index.ts formatSpans):
 * the profile's table flags in bits 16-31, so that a TABLE_UNREACHABLE line keeps
 * /robots.txt allowed where the profile does (RFC 9309 §2.2.2), like Robots.disallowAll().
 * @example standInOptions('rfc') // (FLAG_NORMALIZE_URL | FLAG_IMPLICIT_ROBOTS_TXT) << 16
 */
export function standInOptions(profile: Profile): number {
  return profileFlags(profile) << 16;
}

/**
 * Agent j's JSONL key as MULTI rows write it (src/table/abi.ts): `"A":{"verdict":"`, a
 * comma first from the second on. Product tokens need no JSON escaping beyond the quotes.
 * @example agentKeys(['A', 'B']).map(String) // ['"A":{"verdict":"', ',"B":{"verdict":"']
 */
export function agentKeys(agents: readonly string[]): Uint8Array[] {
  return agents.map((agent, j) => Buffer.from(`${j === 0 ? '' : ','}${JSON.stringify(agent)}:{"verdict":"`, 'latin1'));
}
