// Instantiates the matcher module and states its exports: the one place that names the Wasm ABI in TypeScript.
import { WASM_BASE64 } from './bytes.js';
import { FORMAT_VERSION } from '../table/format.js';
import { ABI_VERSION } from '../table/abi.js';

/** The module's exports (assembly/index.ts), one doc line each. */
export interface WasmExports {
  readonly memory: WebAssembly.Memory;
  /** First byte free for the host. */
  heapBase(): number;
  /** Bytes of the RuleIndex of the table at `table`, full (`lean` 0) or lean (1). */
  indexBytes(table: number, lean: number): number;
  /** Bytes of the RuleIndex of a table with these counts, full or lean (the arena sizes slots with it). */
  indexBytesFor(flags: number, wildcardCount: number, nodeCount: number, segmentCount: number, poolLength: number, lean: number): number;
  /** Builds the RuleIndex of the table at `table` into `index`: full (`lean` 0), or lean (1: no DFA or automaton region). */
  indexTable(table: number, index: number, lean: number): void;
  /** The address of a lean RuleIndex's u32 count of paths judged, 0 for a full one. */
  leanCounter(table: number, index: number): number;
  /** States of the wildcard automaton in that RuleIndex, 0: none (a diagnostic). */
  automatonStates(table: number, index: number): number;
  /** The DFA of that RuleIndex (assembly/dfa.ts): cached states (`what` 0), flushes (1), in use (2), trial window's paths left (3), rule matches so far (4), mode (5: 0 states carry the bests, 1 a step's matches), plain rules taken in (6), its region's bytes (7) and the LOOPS records its cached states share (8); 0: none (a diagnostic). */
  dfaStatus(table: number, index: number, what: number): number;
  /** Gives up that RuleIndex's DFA now, as a cache that keeps filling does: a crowd takes its automaton at its next path (a diagnostic for tests). */
  dropDfa(table: number, index: number): void;
  /** Empties that RuleIndex's DFA cache and turns it to the mode its first flush takes, states holding a step's matches (a diagnostic for tests). */
  dfaStepMode(table: number, index: number): void;
  /** Wildcard rules from which a table uses the DFA from its first path (assembly/dfa.ts DFA_MIN_RULES). */
  readonly dfaMinRules: WebAssembly.Global;
  /** Wildcard rules from which a table gets a DFA on trial (assembly/dfa.ts DFA_TRIAL_RULES). */
  readonly dfaTrialRules: WebAssembly.Global;
  /** Paths of a trial's window (assembly/dfa.ts TRIAL_PATHS). */
  readonly dfaTrialPaths: WebAssembly.Global;
  /** Rule matches per path, times 2, from which a trial's window turns the DFA on (assembly/dfa.ts TRIAL_CALLS_X2). */
  readonly dfaTrialCallsX2: WebAssembly.Global;
  /** Most positions (pattern bytes plus one per rule) of the plain rules a DFA takes in (assembly/dfa.ts FOLD_POSITIONS). */
  readonly dfaFoldPositions: WebAssembly.Global;
  /** DFA region bytes per trie node, for the states the folded plain rules add (assembly/dfa.ts DFA_PER_NODE). */
  readonly dfaPerNode: WebAssembly.Global;
  /** Most trie nodes for which a DFA region gets dfaPerNode bytes a node (assembly/dfa.ts DFA_FOLD_NODES). */
  readonly dfaFoldNodes: WebAssembly.Global;
  /** Most bytes of a DFA region whatever the table (assembly/dfa.ts DFA_CAP); more only within agentBytes. */
  readonly dfaCap: WebAssembly.Global;
  /** Bytes a table and its RuleIndex may take together when its DFA region goes past dfaCap (assembly/rule-index.ts AGENT_BYTES). */
  readonly agentBytes: WebAssembly.Global;
  /** Turns the wildcard DFA on (1, the default) or off (0) for every table of this instance: rule by rule, same verdicts. */
  useDfa(on: number): void;
  /** Judges `count` back-to-back URLs whose byte lengths are at `lengths`. */
  matchUrls(table: number, index: number, input: number, lengths: number, count: number, out: number, linesOut: number, scratch: number): void;
  /** Judges one URL when it is plainly on the origin at `origin`, else returns MATCH_NOT_PLAIN (abi.ts). */
  matchOnOrigin(table: number, index: number, input: number, len: number, origin: number, originLen: number, linesOut: number, scratch: number): number;
  /** Judges LF-separated URLs; returns lines judged, `consumed()` the bytes they covered. */
  matchLines(table: number, index: number, input: number, len: number, out: number, linesOut: number, scratch: number, final: number): number;
  consumed(): number;
  /** Many agents: judges back-to-back URLs against the tables of a TABLE_SLOT array, each URL prepared once (abi.ts MULTI). */
  matchUrlsMulti(slots: number, tableCount: number, input: number, lengths: number, count: number, out: number, linesOut: number, scratch: number): void;
  /** Many agents over LF-separated URLs; returns lines judged, `consumed()` the bytes they covered. */
  matchLinesMulti(slots: number, tableCount: number, input: number, len: number, out: number, linesOut: number, scratch: number, final: number): number;
  /** Prepares one URL under `flags`; the bytes are at `preparedPtr()`. */
  prepareUrl(flags: number, url: number, len: number, scratch: number): number;
  preparedPtr(): number;
  /** Writes the ids of every wildcard rule matching the URL (u32 each) to `out`. */
  collectMatches(table: number, url: number, len: number, out: number, scratch: number): number;
  /** Judges LF-separated URLs against one table and writes their output rows. */
  formatLines(table: number, index: number, input: number, len: number, final: number, out: number, outCap: number, options: number, scratch: number): number;
  /** Splits lines and writes one span record (abi.ts SPAN) per line with its host and HostIndex id. */
  scanHosts(input: number, len: number, final: number, spans: number, maxCount: number, hosts: number, hostMask: number): number;
  /** Judges span records, line i against table slot ids[i], and writes rows with a host column. */
  formatSpans(input: number, spans: number, first: number, count: number, ids: number, slots: number, out: number, outCap: number, options: number, scratch: number): number;
  /** Many agents: judges span records for every agent's table of the line's group and writes one row with a column per agent (abi.ts MULTI rows). */
  formatSpansMulti(
    input: number, spans: number, first: number, count: number, ids: number, groups: number, width: number, columns: number, slots: number,
    out: number, outCap: number, options: number, scratch: number,
  ): number;
  written(): number;
  allowed(): number;
  disallowed(): number;
  readonly formatVersion: WebAssembly.Global;
  readonly abiVersion: WebAssembly.Global;
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

let compiled: WebAssembly.Module | undefined;

/**
 * A new instance of the embedded module (synchronous: the module is small), refusing one
 * built for another table format or ABI than this host's.
 * @example const exports = instantiate(); exports.heapBase() // first free byte
 */
export function instantiate(): WasmExports {
  // Compiled once per thread: an engine that replaces its instance (WasmEngine.recycle) only instantiates.
  const module = (compiled ??= new WebAssembly.Module(decodeBase64(WASM_BASE64) as Uint8Array<ArrayBuffer>));
  const exports = new WebAssembly.Instance(module, {}).exports as unknown as WasmExports;
  const version = exports.formatVersion.value as number;
  if (version !== FORMAT_VERSION) {
    throw new Error(`robotstxt-wasm: Wasm module reads rule table v${version}, host writes v${FORMAT_VERSION}; rebuild with npm run build`);
  }
  const abi = exports.abiVersion.value as number;
  if (abi !== ABI_VERSION) {
    throw new Error(`robotstxt-wasm: Wasm module speaks ABI v${abi}, host speaks v${ABI_VERSION}; rebuild with npm run build`);
  }
  return exports;
}
