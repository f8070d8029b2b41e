// The tester page (scripts/build-tester.mjs) opened from disk in headless Chromium: typing, the verdict table, the highlight, lint inline, the diff tab.
//
// The page is built into a temporary folder and opened as a file:// URL, which is how a
// user opens it without a server; its Content-Security-Policy forbids every request, so
// the test also proves the page fetches nothing. Expected verdicts, lint findings and diff
// rows come from the library in Node, so the page is held to the engine, not to copies.
// TESTER_SCREENSHOT=docs/tester.png also writes the screenshot kept in docs/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Robots, lintRobots } from '../src/index.js';
import { diffVerdicts } from '../src/lint/diff.js';
import { resolveChromium } from './helpers/chromium.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = await resolveChromium();

const ROBOTS = [
  'User-agent: *', //             1
  'Disallow: /private/', //       2
  'Allow: /private/open/', //     3
  '', //                          4
  'User-agent: FooBot', //        5
  'Disallow: /', //               6
  'Disalow: /typo/', //           7  key typo: an error in rfc, a Disallow in google
].join('\n');
const URLS = ['https://example.com/private/a', 'https://example.com/private/open/b', 'https://example.com/typo/x'];
const AGENTS = ['OtherBot', 'FooBot'];

interface Row {
  url: string;
  agent: string;
  verdict: string;
  line: string;
  rule: string;
}

let browser: Browser | undefined;
let page: Page;
let dir = '';
// Page errors, console errors and requests that are not file: URLs, over the whole run.
const errors: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(root, 'src', 'wasm', 'bytes.ts'))) throw new Error('src/wasm/bytes.ts is missing: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-tester-'));
  execFileSync(process.execPath, [join(root, 'scripts', 'build-tester.mjs'), '--out', dir], { cwd: root, stdio: 'pipe' });
  browser = await chromium.launch({ executablePath: CHROMIUM.executablePath, args: [...CHROMIUM.args] });
  // One page for both tests: the packaged Chromium runs --single-process, where a second page can hang.
  page = await openPage();
}, 120_000);

afterAll(async () => {
  await page?.close();
  await browser?.close();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

async function openPage(): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width: 1000, height: 700 } });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) errors.push(`request: ${r.url()}`);
  });
  await page.goto(pathToFileURL(join(dir, 'index.html')).href);
  await page.waitForSelector('html[data-ready=true]', { timeout: 20_000 });
  return page;
}

function verdictRows(page: Page): Promise<Row[]> {
  return page.$$eval('#verdicts tbody tr', (trs) =>
    trs.map((tr) => {
      const [url, agent, verdict, line, rule] = [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '');
      return { url: url!, agent: agent!, verdict: verdict!, line: line!, rule: rule! };
    }),
  );
}

/** The rows the page should show: every URL × agent, as Robots#explain in Node says. */
function expectedRows(body: string, profile: 'rfc' | 'google', urls: readonly string[], agents: readonly string[]): Row[] {
  const robots = Robots.parse(body, { profile });
  return urls.flatMap((url) =>
    agents.map((agent) => {
      const { allowed, line, rule } = robots.explain(url, agent);
      return {
        url,
        agent,
        verdict: allowed ? 'allow' : 'disallow',
        line: line === 0 ? '–' : String(line),
        rule: rule ?? '(no rule)',
      };
    }),
  );
}

function listOfUrls(text: string): string[] {
  return [...new Set(text.split('\n').map((u) => u.trim()).filter((u) => u !== ''))];
}

async function highlighted(page: Page, className: string): Promise<number[]> {
  return page.$$eval(`#file-view li.${className}`, (lis) => lis.map((li) => Number((li as HTMLElement).dataset.line)));
}

describe(`tester page from disk in Chromium [${CHROMIUM.label}]`, () => {
  it('opens with an example whose rows are the engine verdicts, and takes the screenshot', async () => {
    const body = await page.inputValue('#robots');
    const urls = (await page.inputValue('#urls')).split('\n').filter((u) => u !== '');
    const agents = (await page.inputValue('#agents')).split(',').map((a) => a.trim());
    expect(urls.length).toBeGreaterThan(0);
    expect(await verdictRows(page)).toEqual(expectedRows(body, 'rfc', urls, agents));
    expect(await page.locator('#lint-list li').count()).toBe(lintRobots(body).length);
    // The screenshot shows a pinned row: the first one decided by a rule.
    const decided = (await verdictRows(page)).findIndex((r) => r.line !== '–');
    await page.locator('#verdicts tbody tr').nth(decided).click();
    expect(await highlighted(page, 'deciding')).toHaveLength(1);
    const shot = join(dir, 'tester.png');
    await page.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(0);
    const keep = process.env.TESTER_SCREENSHOT;
    if (keep !== undefined && keep !== '') await page.screenshot({ path: resolve(root, keep) });
    expect(errors).toEqual([]);
  });

  it('shows verdicts for typed input, highlights the deciding line, lints inline, rejects bad agents, diffs two versions', async () => {
    // Typing: fill replaces each field at once; a URL typed key by key comes on top.
    await page.fill('#robots', ROBOTS);
    await page.fill('#urls', URLS.slice(0, 2).join('\n'));
    await page.fill('#agents', AGENTS.join(', '));
    await page.focus('#urls');
    await page.keyboard.press('End');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(`\n${URLS[2]}`);
    expect(await verdictRows(page)).toEqual(expectedRows(ROBOTS, 'rfc', URLS, AGENTS));
    // Spot checks against the file above, so a wrong engine cannot agree with itself.
    const rows = await verdictRows(page);
    expect(rows[0]).toMatchObject({ agent: 'OtherBot', verdict: 'disallow', line: '2' });
    expect(rows[2]).toMatchObject({ agent: 'OtherBot', verdict: 'allow', line: '3' });

    // Hover: the deciding line and the group's user-agent line light up; leaving restores the pinned row.
    const rowsEls = page.locator('#verdicts tbody tr');
    await rowsEls.nth(0).hover();
    expect(await highlighted(page, 'deciding')).toEqual([2]);
    expect(await highlighted(page, 'agent-line')).toEqual([1]);
    await rowsEls.nth(3).click(); // FooBot, /private/open/b: its own group's Disallow: / (line 6)
    expect(await highlighted(page, 'deciding')).toEqual([6]);
    expect(await highlighted(page, 'agent-line')).toEqual([5]);
    await rowsEls.nth(2).hover();
    expect(await highlighted(page, 'deciding')).toEqual([3]);
    await page.mouse.move(990, 690);
    expect(await highlighted(page, 'deciding')).toEqual([6]);

    // Lint: every finding of lintRobots is listed, and each is marked on its own line.
    const findings = lintRobots(ROBOTS, { profile: 'rfc' });
    expect(findings.map((d) => d.code)).toContain('key-typo');
    expect(await page.locator('#lint-list li').count()).toBe(findings.length);
    for (const d of findings) {
      await expect.poll(() => page.locator(`#L${d.line} .diag`).allTextContents()).toContain(`${d.severity} ${d.code}: ${d.message}`);
    }
    const typo = findings.find((d) => d.code === 'key-typo')!;
    expect(typo.line).toBe(7);
    expect(await page.getAttribute('#L7', 'class')).toContain(`lint-${typo.severity}`);

    // Profile: google reads `Disalow` as Disallow, so line 7 now decides FooBot's /typo/x.
    await page.selectOption('#profile', 'google');
    expect(await verdictRows(page)).toEqual(expectedRows(ROBOTS, 'google', URLS, AGENTS));
    expect((await verdictRows(page))[5]).toMatchObject({ agent: 'FooBot', verdict: 'disallow', line: '7' });
    await page.selectOption('#profile', 'rfc');

    // A whole User-Agent header is not a product token: the library's TypeError is shown, the other agents still run.
    await page.fill('#agents', 'OtherBot, FooBot/2.1 (+https://foo.example)');
    let message = '';
    try {
      Robots.parse(ROBOTS).forAgent('FooBot/2.1 (+https://foo.example)');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("did you mean 'FooBot'");
    expect(await page.locator('#errors').textContent()).toBe(message);
    expect(new Set((await verdictRows(page)).map((r) => r.agent))).toEqual(new Set(['OtherBot']));
    await page.fill('#agents', AGENTS.join(', '));
    expect(await page.locator('#errors').textContent()).toBe('');

    // Diff tab: a second version; the rows are diffVerdicts' rows for each agent.
    const NEW = ['User-agent: *', 'Disallow: /private/', '', 'User-agent: FooBot', 'Allow: /private/'].join('\n');
    await page.click('#tab-diff');
    expect(await page.isVisible('#panel-verdicts')).toBe(false);
    await page.fill('#robots-new', NEW);
    const diffRows = await page.$$eval('#diff tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    const oldRobots = Robots.parse(ROBOTS);
    const newRobots = Robots.parse(NEW);
    const want = AGENTS.flatMap((agent) =>
      diffVerdicts(oldRobots, newRobots, agent, URLS).rows.map((r) => [
        r.change, r.url, agent, r.old.rule === null ? '(no rule)' : `${r.old.line}: ${r.old.rule}`, r.new.rule === null ? '(no rule)' : `${r.new.line}: ${r.new.rule}`,
      ]),
    );
    expect(want.map((r) => r[0])).toEqual(expect.arrayContaining(['allow→disallow', 'disallow→allow']));
    expect(diffRows).toEqual(want);
    // Spot check from the two files: the old Allow (line 3) gave way to the new Disallow (line 2).
    expect(diffRows).toContainEqual(['allow→disallow', URLS[1], 'OtherBot', '3: allow: /private/open/', '2: disallow: /private/']);
    expect(await page.textContent('#diff-summary')).toContain(
      `${URLS.length * AGENTS.length} URL × crawler pairs compared on the URLs: ${want.filter((r) => r[0] === 'allow→disallow').length} allow→disallow`,
    );

    expect(errors).toEqual([]);
  }, 120_000);

  it('reads an opened or dropped file as bytes: a BOM and invalid UTF-8 reach the linter, a dropped version the diff', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('User-agent: *\nDisallow: /a\xff\n', 'latin1')]);
    await page.setInputFiles('#robots-file', { name: 'robots.txt', mimeType: 'text/plain', buffer: bytes });
    const codes = lintRobots(new Uint8Array(bytes)).map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining(['bom']));
    await expect.poll(() => page.locator('#lint-list code').allTextContents()).toEqual(lintRobots(new Uint8Array(bytes)).map((d) => d.code));
    // Editing the text drops the bytes: the page then lints what is in the box.
    await page.fill('#robots', 'User-agent: *\nDisallow: /a\n');
    expect(await page.locator('#lint-list code').allTextContents()).toEqual(lintRobots('User-agent: *\nDisallow: /a\n').map((d) => d.code));

    // A file dropped on the second box: the diff tab compares against its bytes.
    const dropped = 'User-agent: *\nDisallow: /\n';
    const transfer = await page.evaluateHandle((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'robots.txt', { type: 'text/plain' }));
      return data;
    }, dropped);
    await page.click('#tab-diff');
    await page.dispatchEvent('#robots-new', 'drop', { dataTransfer: transfer });
    await expect.poll(() => page.inputValue('#robots-new')).toBe(dropped);
    const urls = listOfUrls(await page.inputValue('#urls'));
    const agents = (await page.inputValue('#agents')).split(',').map((a) => a.trim());
    const flips = agents.flatMap((agent) => diffVerdicts(Robots.parse('User-agent: *\nDisallow: /a\n'), Robots.parse(dropped), agent, urls).rows);
    expect(flips.length).toBeGreaterThan(0);
    expect(await page.locator('#diff tbody tr').count()).toBe(flips.length);
    await page.click('#tab-verdicts');
    expect(errors).toEqual([]);
  }, 60_000);
});
