// What `require('robotstxt-wasm')` returns (package.json "exports" "." "require"): the robots-parser function carrying every named export.
//
// With it the package root is a drop-in for robots-parser when installed under that name
// (npm `overrides` with an `npm:robotstxt-wasm@…` alias, docs/COMPAT.md): simplecrawler's
// `require('robots-parser')(url, body)` and Crawlee's `__importDefault(require(…)).default`
// both reach the compat function, while `const { Robots } = require('robotstxt-wasm')`
// keeps working. Node ≥ 20.19 returns an ES module's export named 'module.exports' from
// require(). ES imports of the root never load this file: they get dist/index.js, the
// same module instances this file re-exports.
import * as api from './index.js';
import { robotsParser } from './compat.js';

export * from './index.js';
export { default } from './index.js';

// A function of its own, so the properties below do not land on the compat export.
function robotstxtWasm(
  url: string,
  contents: string | Uint8Array | null | undefined,
): ReturnType<typeof robotsParser> {
  return robotsParser(url, contents);
}

const commonJsExport = Object.assign(robotstxtWasm, api, { default: robotstxtWasm });

export { commonJsExport as 'module.exports' };
