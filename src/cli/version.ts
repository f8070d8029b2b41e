// The package's version, read at run time from its package.json (found from this module's location).
import { readFileSync } from 'node:fs';

const PACKAGE_NAME = 'robotstxt-wasm';
let cached: string | null | undefined;

/**
 * The `version` of robotstxt-wasm's package.json, or null when it cannot be found. The
 * file is looked for in the directories above this module (src/cli/ and dist/cli/ both
 * sit two levels below it), and must name this package: a bundler or an unusual install
 * layout then gives null instead of another package's version.
 * @example packageVersion() // '0.1.0'
 */
export function packageVersion(): string | null {
  if (cached !== undefined) return cached;
  cached = null;
  for (let up = '../'; up.length <= 5 * 3; up += '../') {
    let manifest: { name?: unknown; version?: unknown };
    try {
      manifest = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8')) as typeof manifest;
    } catch {
      continue;
    }
    if (manifest.name === PACKAGE_NAME && typeof manifest.version === 'string') {
      cached = manifest.version;
      break;
    }
  }
  return cached;
}
