// Public entry of `robotstxt-wasm/fetch`: the RFC 9309 §2.3-2.5 access method and cache.
export {
  fetchRobots,
  fetchRobotsFile,
  resolveFetchOptions,
  DEFAULT_MAX_BYTES,
  MIN_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  type FetchLike,
  type FetchRobotsOptions,
  type ResolvedFetchOptions,
  type RobotsFetchResult,
  type RobotsFetchStatus,
  type RobotsFetchReason,
} from './fetch-robots.js';
export { type RobotsCacheHeaders } from './validators.js';
export {
  RobotsCache,
  productTokenOf,
  UNREACHABLE_LIMIT_MS,
  type RobotsCacheOptions,
  type RobotsCacheEntry,
  type RobotsCacheBasis,
  type RobotsCacheAgent,
} from './cache.js';
export {
  fetchAcapReference,
  findAcapReference,
  ACAP_REFERENCE_KEY,
  type AcapReferenceResult,
  type AcapReferenceStatus,
  type AcapReferenceDiagnostic,
} from './acap-reference.js';
export {
  createFetchLimiter,
  createHostPoliteness,
  type FetchLimiter,
  type HostPoliteness,
  type HostPolitenessOptions,
} from './limiter.js';
export { robotsUrlOf, originOf, cacheHintsOf, MAX_FRESHNESS_MS, type CacheHints } from './http.js';
export { readLimited, type LimitedBody } from './body.js';
