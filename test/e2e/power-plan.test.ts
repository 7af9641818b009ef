// Issue 24 in Chromium: the wizard's summary shows the power plan beside the cost (the smallest
// detectable effect per confirmatory comparison, the rates' source, the glossary entry naming the
// formulas) and answers the inverse for an effect the user types; EN and 中文 screenshots.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcnemarExactMde, mcnemarExactSampleSize } from '../../src/shared/stats/power';
import { assertBuilt } from '../helpers/cli';
import { startKeylessApp, type AppInBrowser } from './helpers/app';
import { shootAll, switchLanguage } from './helpers/screens';
import type { ServeHandle } from './helpers/serve';

let app: AppInBrowser<ServeHandle>;
let page: Page;
let server: ServeHandle;

beforeAll(async () => {
  assertBuilt();
  app = await startKeylessApp({ viewport: { width: 1280, height: 1400 }, timeoutMs: 60_000 });
  ({ server, page } = app);
});
afterAll(async () => {
  await app?.close();
});

const byTestId = (id: string) => page.getByTestId(id);

describe('the power plan in the wizard (issue 24)', () => {
  it('shows the smallest detectable effects beside the cost, and the items a typed effect needs', async () => {
    await page.goto(server.url);
    await switchLanguage(page, 'en');
    await byTestId('nav-experiments').click();
    await byTestId('try-demo').click();
    const plan = byTestId('power-plan');
    await expect.poll(() => plan.isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await byTestId('estimate-table').isVisible()).toBe(true);
    expect(await byTestId('power-pilot').innerText()).toMatch(/No earlier run of these judges/);
    const first = plan.locator('[data-id="accuracy_change:EN-ZH"]');
    // The demo: 20 items in both orders, one unit per item (its two orders are correlated), ψ = 0.2
    // by default: about 4 discordant items, too few for any change to reach 80% power.
    expect(mcnemarExactMde(20, 0.2)).toBeNull();
    expect(await first.getByTestId('power-mde').innerText()).toMatch(/is not detected with 20 items/);
    expect(await first.innerText()).toContain('exact McNemar');

    // Type an effect: the items it needs come back from the core.
    const input = first.getByTestId('power-effect');
    await input.fill('0.1');
    await input.blur();
    const items = mcnemarExactSampleSize(0.2, 0.1)!;
    await expect
      .poll(() => first.getByTestId('power-items').innerText(), { timeout: 60_000 })
      .toBe(`${items} items`);

    // The glossary names the formula.
    await plan.getByTestId('glossary-link').click();
    await expect.poll(() => page.locator('body').innerText()).toMatch(/Σ_d Bin\(d; n, ψ\)/);
    await page.keyboard.press('Escape');

    await plan.scrollIntoViewIfNeeded();
    await shootAll(page, 'power-plan', async (lang) => {
      await expect
        .poll(() => byTestId('power-plan').innerText())
        .toMatch(lang === 'zh' ? /统计功效/ : /Power: what these items can detect/);
      await byTestId('power-plan').scrollIntoViewIfNeeded();
    });
  }, 180_000);
});
