// The CLI's classifier (`classify`): one HostTables cache of compiled per-host rules, fed by a directory source or a fetch source.
//
// - host-tables.ts       HostTables: hosts by HostIndex id, LRU-quarter eviction, index rebuild;
//                        Misses: a batch's uncached hosts grouped; host keys.
// - directory-source.ts  --robots-dir: DIR/<host>.txt + outcomes.tsv (DirectorySource) and
//                        ClassifyProcessor (one batch at a time, tables in reused slots).
// - fetch-source.ts      --fetch: FetchedRobots (RobotsCache, politeness) and
//                        FetchClassifyProcessor (overlapping batches, per-origin loads).
export { HostTables, Misses, MAX_HOST_BYTES, hostKey, sameHost, type CachedHost, type Miss } from './host-tables.js';
export {
  ClassifyProcessor, DirectorySource, hostFileName, OUTCOMES_FILE, OUTCOMES_HEADER, readOutcomes,
  type FetchedOutcome, type RobotsSource,
} from './directory-source.js';
export {
  FetchClassifyProcessor, FetchedRobots, schemeOf, SCHEME_PREFIX,
  type FetchClassifyJob, type FetchCounts, type FetchedRobotsOptions, type OriginRobots,
} from './fetch-source.js';
