// Issue 26 item 5 in Chromium through `judge-lab serve`: a set's guidelines (written when the set
// is made, shown as text on the rating screen, edited into a new version) and the adjudication
// view (the items two annotators labelled differently, their labels side by side with the
// guidelines version each was made under, a settled label stored as such). On a data folder a
// simulated Judge-LS run filled; bob's labels come through the API under version 1, alice types
// hers under version 2. Screenshots EN/中文 × light/dark; no page error.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Disagreement } from '../../src/shared/annotation/api-types';
import { assertBuilt } from '../helpers/cli';
import { SIM_PROVIDERS, startSeededApp, type AppInBrowser } from './helpers/app';
import { englishOnScreen } from './helpers/english';
import { shootAll, switchLanguage } from './helpers/screens';
import { callApi, type ServeHandle } from './helpers/serve';

const N = 6;
const V1 =
  'Prefer the answer that <b>follows the instruction</b>.\nTie only when both are equally good & correct.';
const V2 = `${V1}\nVersion 2: length alone never decides.`;

let app: AppInBrowser<{ url: string; stop: () => Promise<void> }>;
let page: Page;
let experimentId = 0;
let setId = 0;
/** bob's label per unit (through the API, under version 1). */
const bob = new Map<string, string>();
/** alice's label per unit (typed, under version 2). */
const alice = new Map<string, string>();

beforeAll(async () => {
  assertBuilt();
  app = await startSeededApp(
    async (core) => {
      const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar-demo' });
      experimentId = core.experiments.createOrUpdate({
        name: 'Guidelines study',
        protocol: 'judge-ls',
        dataset: dataset.id,
        limit: N,
        providers: SIM_PROVIDERS,
        transform: { provider: 'sim', model: 'sim-translator' },
        judges: [{ label: 'Sim judge', provider: 'sim', model: 'sim-judge-weak' }],
      }).id;
      await core.experiments.runToEnd(experimentId);
      const set = await core.call('annotation.createSet', {
        experimentId,
        size: N,
        seed: 3,
        name: 'Guided set',
        guidelines: V1,
      });
      setId = set.id;
      const session = await core.call('annotation.session', { setId, annotator: 'bob' });
      for (const item of session.items) {
        bob.set(item.unitUid, '1');
        await core.call('annotation.label', { setId, annotator: 'bob', unitUid: item.unitUid, value: '1' });
      }
    },
    { width: 1280, height: 900 },
  );
  page = app.page;
}, 240_000);

afterAll(async () => {
  await app?.close();
});

/** The served app as `callApi` takes it: origin and token from the URL `serve` printed. */
const server = (): ServeHandle => {
  const url = new URL(app.server.url);
  return { ...app.server, origin: url.origin, token: url.searchParams.get('token')!, kill: app.server.stop };
};
const go = async (hash: string, ready: string) => {
  await page.goto(`${app.server.url}#${hash}`);
  await page.getByTestId(ready).first().waitFor();
};

describe('annotation guidelines and adjudication, in Chromium', () => {
  it('shows the guidelines written with the set on the rating screen, as text', async () => {
    await go(`/annotation?set=${setId}&annotator=alice`, 'annotate-guidelines');
    const text = page.getByTestId('guidelines-text');
    expect(await text.innerText()).toBe(V1);
    // Written markup is characters, never elements.
    expect(await text.locator('b').count()).toBe(0);
    expect(await page.getByTestId('annotate-guidelines').locator('summary').innerText()).toMatch(/1/);
  });

  it('edits them into version 2, which the rating screen then shows', async () => {
    await go(`/annotation?set=${setId}&view=guidelines`, 'guidelines-editor');
    await expect.poll(() => page.getByTestId('guidelines-input').inputValue()).toBe(V1);
    await page.getByTestId('guidelines-input').fill(V2);
    await page.getByTestId('guidelines-save').click();
    await expect.poll(() => page.getByTestId('guidelines-version').innerText()).toMatch(/2/);
    const versions = await callApi<{ version: number; text: string }[]>(server(), 'annotation.guidelines', {
      setId,
    });
    expect(versions.map((v) => [v.version, v.text])).toEqual([
      [1, V1],
      [2, V2],
    ]);
    await shootAll(page, 'annotation-guidelines-editor', () =>
      page.getByTestId('guidelines-editor').waitFor(),
    );
    await go(`/annotation?set=${setId}&annotator=alice`, 'annotate-guidelines');
    await expect.poll(() => page.getByTestId('guidelines-text').innerText()).toBe(V2);
    await shootAll(page, 'annotation-guidelines-screen', () =>
      page.getByTestId('annotate-guidelines').waitFor(),
    );
  });

  it('alice rates by keyboard: A on the even items, B on the odd ones', async () => {
    await go(`/annotation?set=${setId}&annotator=alice`, 'annotate-item');
    for (let i = 0; i < N; i++) {
      const item = page.getByTestId('annotate-item');
      await expect.poll(() => item.getAttribute('data-index')).toBe(String(i));
      const unit = (await item.getAttribute('data-unit'))!;
      const key = i % 2 === 0 ? '1' : '2';
      await page.keyboard.press(key);
      await expect
        .poll(() => page.getByTestId('annotate-progress').getAttribute('data-done'))
        .toBe(String(i + 1));
      alice.set(unit, key);
    }
    await page.getByTestId('annotate-done').waitFor();
  });

  it('lists exactly the items alice and bob labelled differently, with each label’s guidelines version', async () => {
    const differ = [...alice].filter(([unit, v]) => bob.get(unit) !== v).map(([unit]) => unit);
    expect(differ.length).toBe(N / 2);
    await go(`/annotation?set=${setId}&view=adjudicate`, 'adjudication-view');
    await expect.poll(() => page.getByTestId('disagreement').count()).toBe(differ.length);
    const units = await page
      .getByTestId('disagreement')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-unit')));
    expect(new Set(units)).toEqual(new Set(differ));
    // Labels side by side: bob under version 1, alice under version 2.
    const rows = await page.getByTestId('disagreement').first().locator('tbody tr').allInnerTexts();
    const cells = rows.map((r) => r.split('\t').slice(0, 3));
    expect(cells).toEqual(
      expect.arrayContaining([
        ['alice', 'B', '2'],
        ['bob', 'A', '1'],
      ]),
    );
  });

  it('settles one: stored as an adjudication with who gave it, kept after a reload', async () => {
    await page.getByTestId('adjudicator-name').fill('carol');
    const first = page.getByTestId('disagreement').first();
    const unit = (await first.getAttribute('data-unit'))!;
    await first.getByTestId('settle-2').click();
    await expect.poll(() => first.getAttribute('data-settled')).toBe('2');
    expect(await first.getByTestId('adjudicated').innerText()).toContain('carol');
    await go(`/annotation?set=${setId}&view=adjudicate`, 'disagreement');
    await expect
      .poll(() =>
        page.locator(`[data-testid="disagreement"][data-unit="${unit}"]`).getAttribute('data-settled'),
      )
      .toBe('2');
    const stored = await callApi<Disagreement[]>(server(), 'annotation.disagreements', { setId });
    const settled = stored.filter((d) => d.adjudication);
    expect(settled.map((d) => [d.unitUid, d.adjudication!.value, d.adjudication!.adjudicator])).toEqual([
      [unit, '2', 'carol'],
    ]);
    // The people's own labels are untouched by it.
    expect(settled[0].labels.map((l) => [l.annotator, l.value]).sort()).toEqual([
      ['alice', '2'],
      ['bob', '1'],
    ]);
    await shootAll(page, 'annotation-adjudication', () => page.getByTestId('adjudication-view').waitFor());
    expect(app.pageErrors).toEqual([]);
  });
  it('speaks 中文 on the rating screen, the guidelines editor and the adjudication view: no English sentence but the texts people and models wrote', async () => {
    await go(`/annotation?set=${setId}&view=adjudicate`, 'disagreement');
    await switchLanguage(page, 'zh');
    const found: Record<string, string[]> = {};
    for (const [name, hash, ready] of [
      ['adjudication', `/annotation?set=${setId}&view=adjudicate`, 'disagreement'],
      ['guidelines editor', `/annotation?set=${setId}&view=guidelines`, 'guidelines-editor'],
      ['rating screen', `/annotation?set=${setId}&annotator=alice`, 'annotate-guidelines'],
    ] as const) {
      await go(hash, ready);
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      // The dataset's and the people's texts stay as written.
      const written = [...(await page.locator('pre').allInnerTexts()), ...V2.split('\n')];
      found[name] = await englishOnScreen(page, [...written, 'Judge Lab', 'Guided set']);
    }
    await switchLanguage(page, 'en');
    expect(found).toEqual({ adjudication: [], 'guidelines editor': [], 'rating screen': [] });
    expect(app.pageErrors).toEqual([]);
  });
});
