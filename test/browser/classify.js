// Shared by page.html and worker.js: classifies test cases with the built ESM entry (dist/index.js).
import { Robots } from '/dist/index.js';
import robotsParser from '/dist/compat.js';

/**
 * For each case `{ robots, agent, urls }` returns every public path's answer, so the
 * test can check that they agree with each other and with Node:
 * `{ allowed, lines, batch, lines2, bytes }` (booleans, rule lines, matchBatch,
 * matchLines verdicts, and isAllowed on a Robots parsed from UTF-8 bytes).
 */
export function classify(cases) {
  const encoder = new TextEncoder();
  return cases.map(({ robots, agent, urls, origin }) => {
    const parsed = Robots.parse(robots);
    const fromBytes = Robots.parse(encoder.encode(robots));
    const matcher = parsed.forAgent(agent);
    const compat = robotsParser(origin + '/robots.txt', robots);
    return {
      allowed: urls.map((u) => parsed.isAllowed(u, agent)),
      lines: urls.map((u) => parsed.explain(u, agent).line),
      batch: Array.from(matcher.matchBatch(urls)),
      matchLines: Array.from(matcher.matchLines(encoder.encode(urls.join('\n')))),
      bytes: urls.map((u) => fromBytes.isAllowed(u, agent)),
      compat: urls.map((u) => compat.isAllowed(u.startsWith('/') ? origin + u : u, agent)),
    };
  });
}

/** Facts about the global scope the code ran in (a Node API here would be a leak). */
export function environment() {
  return {
    hasProcess: typeof globalThis.process !== 'undefined',
    hasBuffer: typeof globalThis.Buffer !== 'undefined',
    isWorker: typeof globalThis.WorkerGlobalScope !== 'undefined' && globalThis instanceof globalThis.WorkerGlobalScope,
  };
}
