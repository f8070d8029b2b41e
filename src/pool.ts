// The `robotstxt-wasm/pool` entry (package.json "exports" points at dist/pool.js): MatchPool lives in pool/.
export * from './pool/index.js';
