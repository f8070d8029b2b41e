// ACAP permission references: resolving `ACAP-permissions-reference`, fetching it like robots.txt, refusing chains.
//
// ACAP 1.0 part 1 lets robots.txt point to a separate permissions file; that file is
// fetched with the robots.txt access method (RFC 9309 §2.3: redirects, limits, status
// mapping). A permissions file that itself refers onward is refused, so references can
// neither chain nor loop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Robots } from '../src/index.js';
import { fetchAcapReference, fetchRobots, findAcapReference } from '../src/fetch/index.js';
import { redirect, startServer, status, text, type TestServer } from './helpers/http-server.js';

const options = { userAgent: 'TestBot/1.0', timeoutMs: 5000 };
const PERMISSIONS = 'ACAP-crawler: *\nACAP-disallow-crawl: /secret/\n';

let site: TestServer;
let elsewhere: TestServer;

beforeAll(async () => {
  site = await startServer({
    '/robots.txt': text('User-agent: *\nDisallow: /x\nACAP-permissions-reference: /acap/permissions.txt\n'),
    '/acap/permissions.txt': text(PERMISSIONS),
    '/acap/moved.txt': redirect('/acap/permissions.txt', 301),
    '/acap/nested.txt': text(`${PERMISSIONS}acap-Permissions-Reference: /acap/permissions.txt\n`),
    '/acap/self.txt': text('ACAP-permissions-reference: /acap/self.txt\n'),
    '/acap/down.txt': status(503),
  });
  elsewhere = await startServer({ '/shared/acap.txt': text(PERMISSIONS) });
});
afterAll(async () => {
  await site.close();
  await elsewhere.close();
});

describe('resolving the reference', () => {
  it('finds the reference in a fetched robots.txt (key compared case-insensitively)', async () => {
    const robots = (await fetchRobots(site.origin, options)).robots;
    expect(findAcapReference(robots)).toMatchObject({ value: '/acap/permissions.txt', line: 3 });
    expect(findAcapReference(Robots.parse('acap-PERMISSIONS-reference: /p.txt\n'))?.value).toBe('/p.txt');
    expect(findAcapReference(Robots.parse('User-agent: *\nDisallow: /\n'))).toBeUndefined();
  });

  it.each([
    ['a root-relative path', '/acap/permissions.txt', () => `${site.origin}/acap/permissions.txt`],
    ['a relative path', 'acap/permissions.txt', () => `${site.origin}/acap/permissions.txt`],
    ['a path with spaces around it', '  /acap/permissions.txt ', () => `${site.origin}/acap/permissions.txt`],
    ['an absolute URL on the same site', '{site}/acap/permissions.txt', () => `${site.origin}/acap/permissions.txt`],
    ['an absolute URL on another authority', '{elsewhere}/shared/acap.txt', () => `${elsewhere.origin}/shared/acap.txt`],
  ])('resolves %s', async (_name, reference, expected) => {
    const ref = reference.replace('{site}', site.origin).replace('{elsewhere}', elsewhere.origin);
    const result = await fetchAcapReference(`${site.origin}/robots.txt`, ref, options);
    expect(result.status).toBe('ok');
    expect(result.url).toBe(expected());
    expect(result.robots?.others.map((o) => o.key)).toEqual(['ACAP-crawler', 'ACAP-disallow-crawl']);
    expect(result.diagnostic).toBeUndefined();
  });

  it('follows redirects like robots.txt', async () => {
    const result = await fetchAcapReference(`${site.origin}/robots.txt`, '/acap/moved.txt', options);
    expect(result.status).toBe('ok');
    expect(result.fetch?.redirects).toEqual([`${site.origin}/acap/permissions.txt`]);
  });

  it.each(['', '   ', 'mailto:someone@example.com', 'http://[::1'])('reports %j as a bad reference without fetching', async (reference) => {
    const before = site.requests.length;
    const result = await fetchAcapReference(`${site.origin}/robots.txt`, reference, options);
    expect(result.status).toBe('invalid');
    expect(result.diagnostic?.code).toBe('bad-reference');
    expect(result.robots).toBeNull();
    expect(result.fetch).toBeUndefined();
    expect(site.requests.length).toBe(before);
  });
});

describe('validating the referenced file', () => {
  it('refuses a file that refers onward (no chains)', async () => {
    const result = await fetchAcapReference(`${site.origin}/robots.txt`, '/acap/nested.txt', options);
    expect(result.status).toBe('invalid');
    expect(result.diagnostic).toMatchObject({ code: 'nested-reference', line: 3 });
    expect(result.diagnostic?.message).toMatch(/must not contain ACAP-permissions-reference/);
    expect(result.robots).toBeNull();
    expect(result.fetch?.status).toBe('ok');
  });

  it('refuses a file that refers to itself (no loops), after one request', async () => {
    const before = site.hits('/acap/self.txt');
    const result = await fetchAcapReference(`${site.origin}/robots.txt`, '/acap/self.txt', options);
    expect(result.diagnostic?.code).toBe('nested-reference');
    expect(site.hits('/acap/self.txt') - before).toBe(1);
  });

  it.each([
    ['/acap/missing.txt', 'unavailable', 404],
    ['/acap/down.txt', 'unreachable', 503],
  ] as const)('passes on the fetch status of %s', async (reference, expected, httpStatus) => {
    const result = await fetchAcapReference(`${site.origin}/robots.txt`, reference, options);
    expect(result.status).toBe(expected);
    expect(result.fetch?.httpStatus).toBe(httpStatus);
    expect(result.robots).toBeNull();
  });

  it('throws for a base that is not an absolute http(s) URL', async () => {
    await expect(fetchAcapReference('/robots.txt', '/acap.txt', options)).rejects.toThrow(/baseRobotsUrl must be an absolute/);
    await expect(fetchAcapReference(site.origin, 42 as unknown as string, options)).rejects.toThrow(/reference must be/);
  });
});
