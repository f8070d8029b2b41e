// Finds a Chromium for the browser test: CHROMIUM_PATH, else a system Chrome/Chromium, else the one packaged in @sparticuz/chromium.
//
// The packaged browser makes `npm ci && npm test` pass on a fresh Linux x64 machine with
// nothing but Node: its Chromium ships inside the npm tarball (brotli-compressed) and
// `executablePath()` unpacks it into the temp directory, so no download and no apt step.
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the browser came from, said in the test's name. */
export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | 'packaged';

/** A browser to hand to playwright-core's `chromium.launch({ executablePath, args })`. */
export interface ResolvedChromium {
  readonly source: ChromiumSource;
  readonly executablePath: string;
  readonly args: readonly string[];
  /** One line for test names and logs, e.g. `packaged @sparticuz/chromium 153.0.0 (/tmp/chromium)`. */
  readonly label: string;
}

// Without the background-networking flags Chromium keeps dialling Google hosts, which a
// closed network refuses; --no-sandbox because CI runs as root.
export const BASE_CHROMIUM_ARGS: readonly string[] = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// Executable names looked up on PATH, then the places installers put them.
const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const SYSTEM_PATHS = [
  '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium', '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

const HOW_TO =
  'Set CHROMIUM_PATH to a Chrome or Chromium executable (e.g. CHROMIUM_PATH=/usr/bin/chromium npm test), ' +
  'or install Chrome/Chromium so that `chromium` or `google-chrome` is on PATH.';

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first system Chrome/Chromium: PATH entries first (what the user chose), then the usual install paths. */
export function findSystemChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const name of SYSTEM_NAMES) {
    for (const dir of dirs) {
      for (const ext of exts) {
        const candidate = join(dir, name + ext);
        if (isExecutableFile(candidate)) return candidate;
      }
    }
  }
  return SYSTEM_PATHS.find(isExecutableFile);
}

/**
 * Resolves the browser in the order CHROMIUM_PATH, system, packaged (Linux x64 only: the
 * packaged binary is built for it).
 * @throws {Error} when CHROMIUM_PATH names no executable file, or when no browser is found;
 *   the message says how to provide one.
 */
export async function resolveChromium(
  env: NodeJS.ProcessEnv = process.env,
  host: { platform: NodeJS.Platform; arch: string } = process,
): Promise<ResolvedChromium> {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!isExecutableFile(fromEnv)) {
      throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file; point it at a Chrome or Chromium binary, or unset it.`);
    }
    return { source: 'CHROMIUM_PATH', executablePath: fromEnv, args: BASE_CHROMIUM_ARGS, label: `CHROMIUM_PATH (${fromEnv})` };
  }

  const system = findSystemChromium(env);
  if (system !== undefined) {
    return { source: 'system', executablePath: system, args: BASE_CHROMIUM_ARGS, label: `system Chromium (${system})` };
  }

  if (host.platform !== 'linux' || host.arch !== 'x64') {
    throw new Error(
      `No Chrome/Chromium found, and the packaged one (@sparticuz/chromium) runs on Linux x64 only ` +
        `(this is ${host.platform}-${host.arch}). ${HOW_TO}`,
    );
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  const executablePath = await packaged.executablePath();
  if (!existsSync(executablePath)) {
    throw new Error(`@sparticuz/chromium unpacked no browser at ${executablePath}. ${HOW_TO}`);
  }
  // The packaged build is chrome-headless-shell and needs its own flags (e.g. --no-zygote,
  // --single-process); its `--headless='shell'` is left out because Playwright passes its
  // own headless flag, and ours (no background networking) are kept.
  const args = [...packaged.args.filter((a) => !a.startsWith('--headless')), ...BASE_CHROMIUM_ARGS];
  // The package's "exports" hides its package.json; it sits one level above the entry (build/index.js).
  const entry = fileURLToPath(import.meta.resolve('@sparticuz/chromium'));
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return {
    source: 'packaged',
    executablePath,
    args: [...new Set(args)],
    label: `packaged @sparticuz/chromium ${version} (${executablePath})`,
  };
}
