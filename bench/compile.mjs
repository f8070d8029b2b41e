// Scenario: parse + compile throughput over every robots.txt of the corpus (or synthetic files).
import robotsParser from 'robots-parser';
import { Robots } from '../dist/index.js';
import { NaiveMatcher } from './naive.mjs';
import { syntheticRobots } from './fixtures.mjs';
import { corpusRobots, measure, printTable } from './lib.mjs';

const AGENT = 'Googlebot';

function loadBodies({ corpus, smoke }) {
  if (corpus) {
    const bodies = corpusRobots(corpus, smoke ? 50 : Infinity);
    return { label: `${bodies.length} real robots.txt files`, bodies };
  }
  const bodies = Array.from({ length: smoke ? 20 : 1000 }, (_, i) => new TextEncoder().encode(syntheticRobots(i, 5 + (i % 200))));
  return { label: `${bodies.length} synthetic robots.txt files`, bodies };
}

export async function run(args) {
  const { label, bodies } = loadBodies(args);
  const bytes = bodies.reduce((n, b) => n + b.length, 0);
  const strings = bodies.map((b) => new TextDecoder().decode(b));
  // The first pass of a fresh process, before the JIT has warmed up: what a one-shot
  // compile of the corpus costs (the table below is steady state, after warm-up).
  const cold = (fn) => {
    const start = performance.now();
    fn();
    return `cold first pass ${(bytes / (performance.now() - start) / 1e3).toFixed(1)} MB/s`;
  };
  const ourCold = cold(() => { for (const b of bodies) Robots.parse(b).forAgent(AGENT); });
  const peerCold = cold(() => { for (const s of strings) robotsParser('https://example.com/robots.txt', s); });
  const rows = await measure(
    [
      {
        engine: 'parse + compile (forAgent)', urls: bodies.length, bytes, note: ourCold,
        fn: () => { for (const b of bodies) Robots.parse(b).forAgent(AGENT); },
      },
      { engine: 'parse only', urls: bodies.length, bytes, fn: () => { for (const b of bodies) Robots.parse(b); } },
      { engine: 'naive parse', urls: bodies.length, bytes, peer: true, fn: () => { for (const s of strings) new NaiveMatcher(s, AGENT); } },
      {
        engine: 'robots-parser', urls: bodies.length, bytes, peer: true, note: peerCold,
        fn: () => { for (const s of strings) robotsParser('https://example.com/robots.txt', s); },
      },
    ],
    args,
  );
  printTable(`compile: ${label}, ${(bytes / 1e6).toFixed(2)} MB`, rows, { unit: 'files' });
  return rows;
}
