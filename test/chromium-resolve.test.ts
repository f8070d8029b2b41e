// The browser test's Chromium lookup (test/helpers/chromium.ts): CHROMIUM_PATH, then a system browser, then the packaged one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_CHROMIUM_ARGS, findSystemChromium, resolveChromium } from './helpers/chromium.js';

let dir = '';
let fakeBin = '';
let fakeChrome = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'robotstxt-chromium-'));
  fakeBin = join(dir, 'bin');
  mkdirSync(fakeBin);
  // Only looked up, never started: an executable file is what the resolver checks.
  fakeChrome = join(fakeBin, 'google-chrome');
  writeFileSync(fakeChrome, '#!/bin/sh\nexit 0\n');
  chmodSync(fakeChrome, 0o755);
  writeFileSync(join(dir, 'not-executable'), '');
  chmodSync(join(dir, 'not-executable'), 0o644);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('resolveChromium', () => {
  it('takes CHROMIUM_PATH first, with our headless flags', async () => {
    const got = await resolveChromium({ CHROMIUM_PATH: fakeChrome, PATH: '' });
    expect(got).toMatchObject({ source: 'CHROMIUM_PATH', executablePath: fakeChrome, args: BASE_CHROMIUM_ARGS });
    expect(got.label).toContain(fakeChrome);
  });

  it('refuses a CHROMIUM_PATH that is not an executable file instead of falling back', async () => {
    await expect(resolveChromium({ CHROMIUM_PATH: join(dir, 'missing'), PATH: fakeBin })).rejects.toThrow(
      /CHROMIUM_PATH=.*missing is not an executable file/,
    );
    await expect(resolveChromium({ CHROMIUM_PATH: join(dir, 'not-executable'), PATH: fakeBin })).rejects.toThrow(
      /is not an executable file/,
    );
  });

  it('finds a system browser on PATH when CHROMIUM_PATH is unset', async () => {
    expect(findSystemChromium({ PATH: fakeBin })).toBe(fakeChrome);
    const got = await resolveChromium({ PATH: fakeBin });
    expect(got).toMatchObject({ source: 'system', executablePath: fakeChrome });
  });

  it('without any browser off Linux x64, says how to provide one', async () => {
    // Only meaningful where no system browser sits at the usual install paths.
    const system = findSystemChromium({ PATH: '' });
    const attempt = resolveChromium({ PATH: '' }, { platform: 'darwin', arch: 'arm64' });
    if (system === undefined) {
      await expect(attempt).rejects.toThrow(/runs on Linux x64 only \(this is darwin-arm64\)\. Set CHROMIUM_PATH/);
    } else {
      await expect(attempt).resolves.toMatchObject({ source: 'system', executablePath: system });
    }
  });
});
