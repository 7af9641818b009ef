// Issue 26 item 6 in Chromium: with FAKE_KEY set and a custom OpenAI-compatible address, the
// key badge says the key is set but withheld (never "missing"), explains the rule and offers
// the exact FAKE_BASE_URL line; after judge-lab serve restarts with that line set, the same
// page (same port, same token) still holds the wizard draft and the badge says "Key found".
// Screenshots EN/中文 × light/dark; no English sentence in 中文; no page error.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../helpers/cli';
import { launchChromium } from '../helpers/browser';
import { keylessEnv } from '../helpers/cli-simulated';
import { tempDir } from '../helpers/tmp';
import { englishOnScreen } from './helpers/english';
import { shootAll, switchLanguage } from './helpers/screens';
import { callApi, startServeWithEnv, type ServeHandle } from './helpers/serve';

const ADDRESS = 'http://127.0.0.1:9/v1';
const OTHER = 'http://127.0.0.1:10/v1';
const TYPED = 'sk-typed-in-the-page-7c1d';
let browser: Browser;
let page: Page;
let server: ServeHandle | undefined;
let dataDir: string;
let cleanup: () => void;
const pageErrors: string[] = [];

beforeAll(async () => {
  assertBuilt();
  const t = tempDir();
  cleanup = t.cleanup;
  dataDir = join(t.dir, 'data');
  server = await startServeWithEnv(dataDir, { ...keylessEnv(), FAKE_KEY: 'sk-fake-not-real' });
  await callApi(server, 'datasets.loadSample', { sampleId: 'llmbar-demo' });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  cleanup?.();
});

describe('a custom server’s key, withheld and then allowed', () => {
  it('explains the rule on the badge, offers the line, and keeps the draft across a restart', async () => {
    await page.goto(server!.url);
    await switchLanguage(page, 'en');
    await page.getByTestId('nav-experiments').click();
    await page.getByTestId('new-experiment').first().click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('judge-provider-preset').selectOption('custom');
    await page.getByTestId('provider-baseurl').fill(ADDRESS);
    await page.getByTestId('provider-apikeyenv').fill('FAKE_KEY');
    await page.getByTestId('judge-model').first().fill('my-local-model');
    const badge = page.getByTestId('key-status');
    await expect.poll(() => badge.getAttribute('data-status')).toBe('withheld');
    expect(await badge.innerText()).not.toMatch(/missing/i);
    expect(await badge.getAttribute('title')).toMatch(/FAKE_KEY.*FAKE_BASE_URL/);
    expect(await page.getByTestId('key-scope-line').innerText()).toBe(`FAKE_BASE_URL=${ADDRESS}`);
    const card = page.getByTestId('provider-card');
    await shootAll(page, 'key-withheld', async () => {
      await card.scrollIntoViewIfNeeded();
    });
    await switchLanguage(page, 'zh');
    await card.scrollIntoViewIfNeeded();
    expect(await englishOnScreen(page, ['Judge Lab', 'LLMBar', `FAKE_BASE_URL=${ADDRESS}`])).toEqual([]);
    await switchLanguage(page, 'en');

    // The user sets the line and restarts serve: same port, same token, the draft is still there.
    const before = new URL(server!.url).port;
    await server!.stop();
    server = await startServeWithEnv(dataDir, {
      ...keylessEnv(),
      FAKE_KEY: 'sk-fake-not-real',
      FAKE_BASE_URL: ADDRESS,
    });
    expect(new URL(server.url).port).toBe(before);
    await page.reload();
    await page.getByTestId('provider-baseurl').waitFor();
    expect(await page.getByTestId('provider-baseurl').inputValue()).toBe(ADDRESS);
    expect(await page.getByTestId('judge-model').first().inputValue()).toBe('my-local-model');
    await expect.poll(() => page.getByTestId('key-status').getAttribute('data-status')).toBe('set');
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('takes a key typed into the page for another server, kept with its address, at once (issue 38 item 5)', async () => {
    // Another server: the environment's key may not go there; the page says to paste one.
    await page.getByTestId('provider-baseurl').fill(OTHER);
    const badge = page.getByTestId('key-status');
    await expect.poll(() => badge.getAttribute('data-status')).toBe('withheld');
    const card = page.getByTestId('provider-card');
    expect(await card.innerText()).toContain('paste the key below');
    expect(await page.getByTestId('key-address').innerText()).toContain(OTHER);
    await page.getByTestId('key-input').fill(TYPED);
    await page.getByTestId('key-save').click();
    // No restart: the next check finds it, for this server only.
    await expect.poll(() => badge.getAttribute('data-status')).toBe('set');
    expect(await page.getByTestId('key-input').inputValue()).toBe('');
    expect(await card.innerText()).toContain('The key entered here for FAKE_KEY will be used.');
    await shootAll(page, 'key-entered', async () => {
      await card.scrollIntoViewIfNeeded();
    });
    await switchLanguage(page, 'zh');
    await card.scrollIntoViewIfNeeded();
    expect(
      await englishOnScreen(page, ['Judge Lab', 'LLMBar', OTHER, join(dataDir, 'serve-keys.json')]),
    ).toEqual([]);
    await switchLanguage(page, 'en');
    expect(await page.content()).not.toContain(TYPED);
    if (process.platform !== 'win32')
      expect(statSync(join(dataDir, 'serve-keys.json')).mode & 0o777).toBe(0o600);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
