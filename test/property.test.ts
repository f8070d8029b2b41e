// Property-based differential test: the Wasm paths (matchBatch, decideBatch, matchLines, decideLines, explain) against the reference matcher, both profiles.
//
// Every run generates one robots.txt body from a grammar (keys and their typos, separators,
// CR/LF/CRLF, BOM, comments, wildcards, `$`, escapes valid and not, non-ASCII, NUL, invalid
// UTF-8, 16 KB lines), an agent, an optional maxBytes, and a batch of URLs; each URL is
// judged in both profiles by every bulk path and compared, verdict and deciding line and
// rule text, with test/reference/ (checked on its own in property-reference.test.ts).
// RUNS × URLS_PER_RUN × 2 profiles ≥ 100,000 cases per CI run. A failure is shrunk by
// fast-check and reported with body, agent, url, profile, expected and got.
// Override with PROPERTY_RUNS / PROPERTY_SEED to dig deeper or replay a failure.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Robots, isValidProductToken, toMatchPath, type Profile } from '../src/index.js';
import { validateRuleTable } from '../src/table/validate.js';
import { ReferenceRobots, referenceGooglePath, referenceNormalizePathRfc, referencePathParamsQuery, referenceSplitLines } from './reference/index.js';
import { AGENTS, bodyChunks, chunkBytes, pathText, urlBytes, urlText, type Chunk } from './reference/arbitraries.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 2000);
const SEED = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED);
const URLS_PER_RUN = 50;
/** Deep runs (PROPERTY_RUNS=20000…) need more than the default 60 s. */
const TIMEOUT_MS = Math.max(60_000, RUNS * 40);
const PROFILES: readonly Profile[] = ['rfc', 'google'];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Cases compared so far (one URL × one profile × every path), reported at the end. */
const counted = { cases: 0, lineCases: 0, refused: 0 };

interface Scenario {
  readonly chunks: Chunk[];
  readonly agent: string;
  /** Half the URLs are random, half are made from the body's own patterns (see derivedUrls). */
  readonly urls: string[];
  readonly derived: [pick: number, fill: string, suffix: string][];
  readonly byteUrls: Uint8Array[];
  readonly maxBytes: number | null;
  readonly asString: boolean;
  readonly crlf: boolean;
  readonly finalNewline: boolean;
}

const scenario: fc.Arbitrary<Scenario> = fc.record({
  chunks: bodyChunks,
  // Mostly agents the library answers for; one run in ten asks with one it refuses.
  agent: fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...AGENTS.filter((a) => isAgentAccepted(a))) },
    { weight: 1, arbitrary: fc.constantFrom(...AGENTS.filter((a) => !isAgentAccepted(a))) },
  ),
  urls: fc.array(urlText, { minLength: URLS_PER_RUN / 2, maxLength: URLS_PER_RUN / 2 }),
  derived: fc.array(fc.tuple(fc.nat(), pathText, fc.constantFrom('', '', 'x', '/', '?q', '$', '.php', '/index.html')), {
    minLength: URLS_PER_RUN / 2,
    maxLength: URLS_PER_RUN / 2,
  }),
  byteUrls: fc.array(urlBytes, { maxLength: 4 }),
  maxBytes: fc.option(fc.integer({ min: 0, max: 600 }), { freq: 6 }),
  asString: fc.boolean(),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});

/** A printable, replayable description of a body. */
function showBody(body: Uint8Array): string {
  const text = decoder.decode(body);
  const short = text.length > 400 ? `${text.slice(0, 200)}…(${text.length} chars)…${text.slice(-100)}` : text;
  return `${JSON.stringify(short)} (base64 ${Buffer.from(body).toString('base64').slice(0, 2000)})`;
}

function mismatch(s: Scenario, body: Uint8Array, profile: Profile, path: string, url: string | Uint8Array, expected: unknown, got: unknown): never {
  const shownUrl = typeof url === 'string' ? JSON.stringify(url) : `bytes(${Buffer.from(url).toString('hex')})`;
  throw new Error(
    [
      `${path} disagrees with the reference`,
      `  profile:  ${profile}`,
      `  agent:    ${JSON.stringify(s.agent)}`,
      `  url:      ${shownUrl}`,
      `  maxBytes: ${s.maxBytes ?? 'default'}; body passed as ${s.asString ? 'string' : 'bytes'}`,
      `  body:     ${showBody(body)}`,
      `  expected: ${JSON.stringify(expected)}`,
      `  got:      ${JSON.stringify(got)}`,
    ].join('\n'),
  );
}

function joinLines(lines: readonly Uint8Array[], crlf: boolean, finalNewline: boolean): Uint8Array {
  const sep = crlf ? [0x0d, 0x0a] : [0x0a];
  const parts: number[] = [];
  lines.forEach((line, i) => {
    parts.push(...line);
    if (i < lines.length - 1 || finalNewline) parts.push(...sep);
  });
  return Uint8Array.from(parts);
}

/**
 * URLs built from the patterns in `body` (every `*` replaced by `fill`, a final `$`
 * dropped, `suffix` appended), so that most rules are actually hit, near their edges.
 */
function derivedUrls(body: Uint8Array, derived: Scenario['derived']): string[] {
  const values = decoder
    .decode(body)
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/#.*$/, '').split(/[:\s]/).slice(1).join(':').trim())
    .filter((v) => v.length > 0);
  if (values.length === 0) values.push('/');
  return derived.map(([pick, fill, suffix]) => {
    const value = values[pick % values.length]!;
    return value.replace(/\$$/, '').split('*').join(fill) + suffix;
  });
}

/** Whether `Robots` answers for `agent`: a product token (RFC 9309 §2.2.1) or '*'. */
function isAgentAccepted(agent: string): boolean {
  return agent === '*' || isValidProductToken(agent);
}

function checkScenario(scenario: Scenario): void {
  const body = chunkBytes(scenario.chunks);
  const s = { ...scenario, urls: [...scenario.urls, ...derivedUrls(body, scenario.derived)] };
  // A body of text chunks may also be handed over as a JS string (same UTF-8 bytes).
  const textOnly = s.chunks.every((c) => typeof c === 'string');
  const bodyArg = s.asString && textOnly ? (s.chunks as string[]).join('') : body;
  const options = s.maxBytes === null ? {} : { maxBytes: s.maxBytes };

  for (const profile of PROFILES) {
    const ref = ReferenceRobots.parse(body, { profile, ...options });
    const robots = Robots.parse(bodyArg, { profile, ...options });
    const shape = (r: { truncated: boolean; byteLength: number; sitemaps: string[] }) =>
      ({ truncated: r.truncated, byteLength: r.byteLength, sitemaps: r.sitemaps });
    if (JSON.stringify(shape(robots)) !== JSON.stringify(shape(ref))) {
      mismatch(s, body, profile, 'Robots.parse (truncated/byteLength/sitemaps)', '', shape(ref), shape(robots));
    }
    if (!isAgentAccepted(s.agent)) {
      // docs/API.md "User agents": a value that is neither a product token nor '*' is refused,
      // never answered from the `*` groups.
      for (const call of [() => robots.forAgent(s.agent), () => robots.explain('/', s.agent), () => robots.crawlDelay(s.agent)]) {
        let thrown: unknown;
        try {
          call();
        } catch (e) {
          thrown = e;
        }
        if (!(thrown instanceof TypeError)) mismatch(s, body, profile, 'agent check', '', 'TypeError', thrown);
      }
      counted.refused++;
      continue;
    }
    const m = robots.forAgent(s.agent);
    validateRuleTable(m.table);

    const expected = s.urls.map((u) => ref.explain(u, s.agent));
    const batch = m.matchBatch(s.urls);
    const decided = m.decideBatch(s.urls);
    s.urls.forEach((url, i) => {
      const want = expected[i]!;
      if (batch[i] !== (want.allowed ? 1 : 0)) mismatch(s, body, profile, 'matchBatch', url, want.allowed, batch[i]);
      const got = { allowed: decided.verdicts[i] === 1, line: decided.lines[i] };
      if (got.allowed !== want.allowed || got.line !== want.line) {
        mismatch(s, body, profile, 'decideBatch', url, { allowed: want.allowed, line: want.line }, got);
      }
      const explained = m.explain(url);
      if (explained.allowed !== want.allowed || explained.line !== want.line || explained.rule !== want.rule) {
        mismatch(s, body, profile, 'AgentMatcher.explain', url, want, explained);
      }
    });
    // The Robots-level entry points, on a few URLs (they share the cached matcher).
    for (const url of s.urls.slice(0, 3)) {
      const got = robots.explain(url, s.agent);
      const want = expected[s.urls.indexOf(url)]!;
      if (got.allowed !== want.allowed || got.line !== want.line || got.rule !== want.rule) {
        mismatch(s, body, profile, 'Robots.explain', url, want, got);
      }
    }

    // The bytes path: the same URLs as UTF-8 lines, plus lines that are not UTF-8 at all.
    const lineUrls = [...s.urls.map((u) => encoder.encode(u)), ...s.byteUrls];
    const input = joinLines(lineUrls, s.crlf, s.finalNewline);
    const seen = referenceSplitLines(input);
    const lineExpected = seen.map((u) => ref.explain(u, s.agent));
    const lineVerdicts = m.matchLines(input);
    const lineDecided = m.decideLines(input);
    if (lineVerdicts.length !== seen.length || lineDecided.verdicts.length !== seen.length) {
      mismatch(s, body, profile, 'matchLines (line count)', input, seen.length, [lineVerdicts.length, lineDecided.verdicts.length]);
    }
    seen.forEach((url, i) => {
      const want = lineExpected[i]!;
      if (lineVerdicts[i] !== (want.allowed ? 1 : 0)) mismatch(s, body, profile, 'matchLines', url, want.allowed, lineVerdicts[i]);
      if (lineDecided.verdicts[i] !== lineVerdicts[i] || lineDecided.lines[i] !== want.line) {
        mismatch(s, body, profile, 'decideLines', url, { allowed: want.allowed, line: want.line },
          { allowed: lineDecided.verdicts[i] === 1, line: lineDecided.lines[i] });
      }
    });
    counted.cases += s.urls.length;
    counted.lineCases += seen.length;
  }
}

/**
 * In both profiles, the table validates and decideBatch gives the reference's verdict and
 * line for every URL; a mismatch throws with everything needed to reproduce it.
 */
function decideBatchAgrees(body: string | Uint8Array, agent: string, urls: string[], shownBody: string): void {
  for (const profile of PROFILES) {
    const ref = ReferenceRobots.parse(body, { profile });
    const robots = Robots.parse(body, { profile });
    if (!isAgentAccepted(agent)) {
      // docs/API.md "User agents": refused, never answered from the `*` groups.
      expect(() => robots.forAgent(agent), `agent ${JSON.stringify(agent)}`).toThrow(TypeError);
      continue;
    }
    const m = robots.forAgent(agent);
    validateRuleTable(m.table);
    const decided = m.decideBatch(urls);
    urls.forEach((url, i) => {
      const want = ref.explain(url, agent);
      const got = { allowed: decided.verdicts[i] === 1, line: decided.lines[i] };
      if (got.allowed !== want.allowed || got.line !== want.line) {
        throw new Error(`decideBatch, profile ${profile}, agent ${JSON.stringify(agent)}, url ${JSON.stringify(url)}, body ${shownBody}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
      }
    });
  }
}

describe('differential: Wasm paths vs the reference matcher', () => {
  it(`${RUNS} generated robots.txt bodies × ${URLS_PER_RUN} URLs × both profiles agree on verdict, line and rule`, () => {
    counted.cases = 0;
    counted.lineCases = 0;
    counted.refused = 0;
    fc.assert(fc.property(scenario, (s) => checkScenario(s)), { numRuns: RUNS, seed: SEED, endOnFailure: false });
    // Shrinking re-runs failing cases, so only a passing run has an exact count to check.
    // A refused agent compares no URL (its profile runs only the TypeError check).
    expect(counted.refused).toBeGreaterThan(0);
    expect(counted.cases).toBeGreaterThanOrEqual((RUNS * PROFILES.length - counted.refused) * URLS_PER_RUN);
    expect(counted.lineCases).toBeGreaterThanOrEqual(counted.cases);
    console.log(`property: ${counted.cases} URL cases (batch + explain) and ${counted.lineCases} line cases compared`);
  }, TIMEOUT_MS);

  it('toMatchPath equals the reference path extraction and normalization', () => {
    fc.assert(
      fc.property(fc.array(urlText, { minLength: 1, maxLength: 50 }), (urls) => {
        for (const url of urls) {
          const bytes = encoder.encode(url);
          const want = {
            google: decoder.decode(referenceGooglePath(bytes)),
            rfc: decoder.decode(referenceNormalizePathRfc(referencePathParamsQuery(bytes))),
          };
          const got = { google: toMatchPath(url, 'google'), rfc: toMatchPath(url, 'rfc') };
          if (got.google !== want.google || got.rfc !== want.rfc) {
            throw new Error(`toMatchPath(${JSON.stringify(url)}): expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
          }
        }
      }),
      { numRuns: Math.ceil(RUNS / 4), seed: SEED },
    );
  }, TIMEOUT_MS);
});

describe('differential: binary bodies (random bytes) vs the reference matcher', () => {
  // Bytes biased toward structure: line breaks, ':', '#', '*', '$', NUL, BOM bytes, letters of keys.
  const interesting = fc.constantFrom(
    ...[0x0a, 0x0d, 0x3a, 0x23, 0x2a, 0x24, 0x00, 0xef, 0xbb, 0xbf, 0x2f, 0x20, 0x09, 0x0b, 0x25, 0x80, 0xff],
    ...encoder.encode('useragentdisallowUSERAGENT-*'),
  );
  const binaryBody = fc.oneof(
    fc.uint8Array({ maxLength: 512 }),
    fc.array(interesting, { maxLength: 512 }).map((b) => Uint8Array.from(b)),
    fc.tuple(bodyChunks, fc.uint8Array({ maxLength: 64 })).map(([chunks, noise]) => chunkBytes([...chunks, noise])),
  );
  it(`${Math.ceil(RUNS / 4)} random byte bodies: never throw, agree with the reference`, () => {
    fc.assert(
      fc.property(binaryBody, fc.constantFrom(...AGENTS), fc.array(urlText, { minLength: 10, maxLength: 10 }), (body, agent, urls) => {
        decideBatchAgrees(body, agent, urls, showBody(body));
      }),
      { numRuns: Math.ceil(RUNS / 4), seed: SEED },
    );
  }, TIMEOUT_MS);
});

describe('differential: dense rule sets over a tiny alphabet (trie and wildcard ordering)', () => {
  // Many rules sharing prefixes stress the radix trie (splits, exact vs prefix nodes,
  // earliest-line ties) and the priority-sorted wildcard list with its early exit.
  const tiny = fc.array(fc.constantFrom('/', 'a', 'b', 'a', 'b', '*', '$', '%61', '%2F'), { maxLength: 7 }).map((p) => `/${p.join('')}`);
  const denseBody = fc
    .array(fc.tuple(fc.constantFrom('allow', 'disallow', 'disallow', 'user-agent'), tiny, fc.constantFrom('FooBot', '*', 'BarBot')), { minLength: 1, maxLength: 160 })
    .map((lines) => lines.map(([key, pattern, agent]) => `${key}: ${key === 'user-agent' ? agent : pattern}`).join('\n'));
  const tinyUrl = fc.array(fc.constantFrom('/', 'a', 'b', '$', '*', '%61', '%2f'), { maxLength: 9 }).map((p) => `/${p.join('')}`);
  it(`${Math.ceil(RUNS / 4)} dense bodies × 40 URLs × both profiles`, () => {
    fc.assert(
      fc.property(denseBody, fc.constantFrom('FooBot', 'BarBot', 'qux'), fc.array(tinyUrl, { minLength: 40, maxLength: 40 }), (body, agent, urls) => {
        decideBatchAgrees(body, agent, urls, JSON.stringify(body));
      }),
      { numRuns: Math.ceil(RUNS / 4), seed: SEED },
    );
  }, TIMEOUT_MS);
});
