// The tester page's script: verdicts per URL × crawler with the deciding line highlighted, lint findings inline, and the diff of two versions.
//
// Bundled with the engine into one classic inline script (scripts/build-tester.mjs), so the
// page opens from disk: Chromium refuses module scripts on file:// URLs. Everything runs on
// the library's public behaviour: Robots#explain for a verdict and its deciding line,
// lintRobots for the findings, diffVerdicts (the CLI's `robotstxt diff`) for the changes.
import { Robots, lintRobots, type LintDiagnostic, type Profile } from '../../src/index.js';
import { diffVerdicts, generatePaths, type DiffRow } from '../../src/lint/diff.js';

const EXAMPLE_ROBOTS = `User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /drafts/
Disallow: /*.pdf$
Crawl-delay: 2

User-agent: Googlebot
Disallow: /search
Disalow: /tmp/

Sitemap: /sitemap.xml
`;

const EXAMPLE_NEW = `User-agent: *
Disallow: /private/
Disallow: /*.pdf$
Crawl-delay: 2

User-agent: Googlebot
Disallow: /search
Disallow: /tmp/

Sitemap: https://www.example.com/sitemap.xml
`;

const EXAMPLE_URLS = `/
/private/a.html
/private/press/2026.html
/drafts/x
/docs/guide.pdf
/search?q=robots
https://www.example.com/tmp/x
`;

const EXAMPLE_AGENTS = 'ExampleBot, Googlebot';

function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the page has no #${id} of the expected kind`);
  return element;
}

const robotsInput = byId('robots', HTMLTextAreaElement);
const robotsFile = byId('robots-file', HTMLInputElement);
const newInput = byId('robots-new', HTMLTextAreaElement);
const newFile = byId('robots-new-file', HTMLInputElement);
const urlsInput = byId('urls', HTMLTextAreaElement);
const agentsInput = byId('agents', HTMLInputElement);
const profileSelect = byId('profile', HTMLSelectElement);
const errorsBox = byId('errors', HTMLDivElement);
const verdictRows = byId('verdicts', HTMLTableElement).tBodies[0]!;
const fileView = byId('file-view', HTMLOListElement);
const lintSummary = byId('lint-summary', HTMLParagraphElement);
const lintList = byId('lint-list', HTMLUListElement);
const diffSummary = byId('diff-summary', HTMLParagraphElement);
const diffRows = byId('diff', HTMLTableElement).tBodies[0]!;

/**
 * A textarea and, when its text came from a dropped or opened file, that file's bytes: the
 * engine and the linter then see the file as served (a BOM, invalid UTF-8), not its decoding.
 * Any edit drops the bytes.
 */
interface Source {
  readonly input: HTMLTextAreaElement;
  bytes: Uint8Array | null;
}
const oldSource: Source = { input: robotsInput, bytes: null };
const newSource: Source = { input: newInput, bytes: null };

function bodyOf(source: Source): string | Uint8Array {
  return source.bytes ?? source.input.value;
}

/** The lines as the lexer numbers them: CR, LF and CRLF each end one (RFC 9309 §2.2). */
function linesOf(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function listOf(text: string, separator: RegExp): string[] {
  const seen = new Set<string>();
  for (const item of text.split(separator)) {
    const trimmed = item.trim();
    if (trimmed !== '') seen.add(trimmed);
  }
  return [...seen];
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cell(row: HTMLTableRowElement, text: string, className?: string): void {
  row.append(element('td', className, text));
}

/** Marks the deciding line and the user-agent lines of the groups that applied; 0 marks nothing. */
function highlight(line: number, agentLines: readonly number[]): void {
  for (const li of fileView.querySelectorAll('li.deciding, li.agent-line')) li.classList.remove('deciding', 'agent-line');
  for (const n of agentLines) document.getElementById(`L${n}`)?.classList.add('agent-line');
  const target = document.getElementById(`L${line}`);
  if (target) {
    target.classList.add('deciding');
    scrollWithin(fileView, target);
  }
}

/** Brings `item` into view inside its scrolling list only (scrollIntoView would move the whole page too). */
function scrollWithin(list: HTMLElement, item: HTMLElement): void {
  const top = item.offsetTop;
  if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 3);
  }
}

/** The row clicked last: the highlight returns to it when the pointer or focus leaves another. */
let pinned: HTMLTableRowElement | null = null;

function highlightRow(row: HTMLTableRowElement | null): void {
  if (row === null) highlight(0, []);
  else highlight(Number(row.dataset.line), (row.dataset.agentLines ?? '').split(',').filter((s) => s !== '').map(Number));
}

function renderFile(text: string, diagnostics: readonly LintDiagnostic[]): void {
  const byLine = new Map<number, LintDiagnostic[]>();
  for (const d of diagnostics) byLine.set(d.line, [...(byLine.get(d.line) ?? []), d]);
  const items = linesOf(text).map((line, i) => {
    const n = i + 1;
    const li = element('li');
    li.id = `L${n}`;
    li.dataset.line = String(n);
    li.append(element('span', 'ln', String(n)), element('span', 'text', line === '' ? ' ' : line));
    const found = byLine.get(n) ?? [];
    const worst = found.find((d) => d.severity === 'error') ?? found.find((d) => d.severity === 'warning') ?? found[0];
    if (worst) li.classList.add(`lint-${worst.severity}`);
    for (const d of found) li.append(element('span', `diag sev-${d.severity}`, `${d.severity} ${d.code}: ${d.message}`));
    return li;
  });
  fileView.replaceChildren(...items);
}

function renderLint(diagnostics: readonly LintDiagnostic[]): void {
  const count = (severity: string) => diagnostics.filter((d) => d.severity === severity).length;
  lintSummary.textContent =
    diagnostics.length === 0
      ? 'No findings.'
      : `${diagnostics.length} finding${diagnostics.length === 1 ? '' : 's'}: ${count('error')} error(s), ${count('warning')} warning(s), ${count('info')} info.`;
  lintList.replaceChildren(
    ...diagnostics.map((d) => {
      const li = element('li', `sev-${d.severity}`);
      const where = d.line === 0 ? 'file' : `line ${d.line}${d.column === undefined ? '' : `:${d.column}`}`;
      const button = element('button');
      button.type = 'button';
      button.append(`${where} ${d.severity} `, element('code', undefined, d.code), ` ${d.message}`);
      button.addEventListener('click', () => highlight(d.line, []));
      li.append(button);
      return li;
    }),
  );
}

/** The agents the engine accepts, and the library's message for each it rejects (a TypeError naming the token to use). */
function checkAgents(robots: Robots, agents: readonly string[]): { valid: string[]; errors: string[] } {
  const valid: string[] = [];
  const errors: string[] = [];
  for (const agent of agents) {
    try {
      robots.forAgent(agent);
      valid.push(agent);
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  return { valid, errors };
}

function renderVerdicts(robots: Robots, agents: readonly string[], urls: readonly string[]): void {
  const rows: HTMLTableRowElement[] = [];
  for (const url of urls) {
    for (const agent of agents) {
      const { allowed, line, rule, agentLines } = robots.explain(url, agent);
      const row = element('tr');
      row.tabIndex = 0;
      row.dataset.line = String(line);
      row.dataset.agentLines = agentLines.join(',');
      cell(row, url, 'url');
      cell(row, agent);
      cell(row, allowed ? 'allow' : 'disallow', allowed ? 'v-allow' : 'v-disallow');
      cell(row, line === 0 ? '–' : String(line));
      cell(row, rule ?? '(no rule)', 'rule');
      rows.push(row);
    }
  }
  pinned = null;
  verdictRows.replaceChildren(...rows);
}

function renderDiff(oldRobots: Robots, newRobots: Robots, agents: readonly string[], urls: readonly string[]): void {
  const rows: HTMLTableRowElement[] = [];
  let toDisallow = 0;
  let toAllow = 0;
  let compared = 0;
  for (const agent of agents) {
    // Without URLs, the CLI's rule: compare on paths made from both files' rules.
    const list = urls.length > 0 ? urls : generatePaths([oldRobots, newRobots], agent);
    const result = diffVerdicts(oldRobots, newRobots, agent, list);
    compared += result.compared;
    for (const change of result.rows) {
      if (change.change === 'allow→disallow') toDisallow++;
      else toAllow++;
      rows.push(diffRow(change, agent));
    }
  }
  const source = urls.length > 0 ? 'the URLs' : "paths made from both files' rules (no URLs given)";
  diffSummary.textContent =
    agents.length === 0
      ? 'No crawler to compare for.'
      : `${compared} URL × crawler pairs compared on ${source}: ${toDisallow} allow→disallow, ${toAllow} disallow→allow.`;
  diffRows.replaceChildren(...rows);
}

function diffRow(change: DiffRow, agent: string): HTMLTableRowElement {
  const row = element('tr');
  cell(row, change.change, change.change === 'allow→disallow' ? 'c-allow-disallow' : 'c-disallow-allow');
  cell(row, change.url, 'url');
  cell(row, agent);
  cell(row, decidedBy(change.old), 'rule');
  cell(row, decidedBy(change.new), 'rule');
  return row;
}

/** `LINE: RULE`, or `(no rule)` when none decided (allowed by default). */
function decidedBy(side: DiffRow['old']): string {
  return side.rule === null ? '(no rule)' : `${side.line}: ${side.rule}`;
}

function render(): void {
  const errors: string[] = [];
  try {
    const profile = profileSelect.value as Profile;
    const oldBody = bodyOf(oldSource);
    const robots = Robots.parse(oldBody, { profile });
    const diagnostics = lintRobots(oldBody, { profile });
    const { valid, errors: agentErrors } = checkAgents(robots, listOf(agentsInput.value, /[,\n]/));
    errors.push(...agentErrors);
    const urls = listOf(urlsInput.value, /\r\n|\r|\n/);
    renderFile(robotsInput.value, diagnostics);
    renderLint(diagnostics);
    renderVerdicts(robots, valid, urls);
    renderDiff(robots, Robots.parse(bodyOf(newSource), { profile }), valid, urls);
  } catch (error) {
    // Never fail silently: whatever the library threw is shown as it said it.
    errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  }
  errorsBox.replaceChildren(...errors.map((message) => element('p', undefined, message)));
}

async function load(source: Source, file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  // ignoreBOM keeps a BOM in the text, so the view's lines stay the file's lines.
  source.input.value = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  source.bytes = bytes;
  render();
}

function wire(source: Source, picker: HTMLInputElement): void {
  const { input } = source;
  input.addEventListener('input', () => {
    source.bytes = null;
    render();
  });
  input.addEventListener('dragover', (event) => {
    event.preventDefault();
    input.classList.add('dragging');
  });
  input.addEventListener('dragleave', () => input.classList.remove('dragging'));
  input.addEventListener('drop', (event) => {
    input.classList.remove('dragging');
    const file = event.dataTransfer?.files[0];
    if (!file) return;
    event.preventDefault();
    void load(source, file);
  });
  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    if (file) void load(source, file);
    picker.value = '';
  });
}

function wireVerdictRows(): void {
  const rowOf = (target: EventTarget | null) => (target instanceof Element ? target.closest('tr') : null);
  verdictRows.addEventListener('mouseover', (event) => highlightRow(rowOf(event.target)));
  verdictRows.addEventListener('focusin', (event) => highlightRow(rowOf(event.target)));
  verdictRows.addEventListener('mouseleave', () => highlightRow(pinned));
  verdictRows.addEventListener('click', (event) => {
    const row = rowOf(event.target);
    if (!row) return;
    pinned?.removeAttribute('aria-selected');
    pinned = row;
    row.setAttribute('aria-selected', 'true');
    highlightRow(row);
  });
  verdictRows.addEventListener('keydown', (event) => {
    const row = rowOf(event.target);
    if (row && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      row.click();
    }
  });
}

function wireTabs(): void {
  const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role=tab]')];
  const select = (tab: HTMLButtonElement) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute('aria-controls') ?? '')!.hidden = !selected;
    }
    tab.focus();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
      select(tabs[(i + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!);
    });
  });
}

robotsInput.value = EXAMPLE_ROBOTS;
newInput.value = EXAMPLE_NEW;
urlsInput.value = EXAMPLE_URLS;
agentsInput.value = EXAMPLE_AGENTS;
wire(oldSource, robotsFile);
wire(newSource, newFile);
for (const control of [urlsInput, agentsInput]) control.addEventListener('input', render);
profileSelect.addEventListener('change', render);
wireVerdictRows();
wireTabs();
render();
document.documentElement.dataset.ready = 'true';
