// axe-core's WCAG 2 A/AA rules on a Chromium page, for every e2e test. saveScreenshot calls
// assertAxeClean at each picture it takes, so every page state the suite shows is scanned with
// no list to keep up to date; tests that check a state without a picture call it themselves.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The whole WCAG 2.0 and 2.1 A/AA rule set: no rule is left out. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

// A state is the page's markup in a scheme at a width: the same one again (an element's picture
// after the page's, the same screen in a later test of the file) has the same violations, so its
// scan is skipped. Per worker process: the e2e project runs file after file in one (isolate: false),
// and a state clean in one file is clean in the next.
const scanned = new Set<string>();

/** Scans taken and skipped in this process (for measuring the cost). */
export const axeStats = { scans: 0, skipped: 0 };

/**
 * The violations on the page as it is now, one line per node: `<state>: <rule> (<impact>):
 * <selector> — <why>`. An empty list when this very state was scanned before in this process.
 */
export async function axeViolations(page: Page, state: string): Promise<string[]> {
  // Colours ease between schemes and panels slide in: a state is scanned as it ends, not half
  // way (finite animations are finished at once; a spinner's endless one is left running).
  const fingerprint = await page.evaluate(() => {
    for (const a of document.getAnimations()) {
      const end = a.effect?.getComputedTiming().endTime;
      if (typeof end === 'number' && Number.isFinite(end)) a.finish();
    }
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    return `${dark ? 'dark' : 'light'} ${innerWidth}x${innerHeight}\n${document.documentElement.outerHTML}`;
  });
  const key = createHash('sha1').update(fingerprint).digest('hex');
  if (scanned.has(key)) {
    axeStats.skipped++;
    return [];
  }
  // Evaluated through the devtools protocol: the page's CSP (no inline scripts) stays as shipped.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const lines = await page.evaluate(async (tags) => {
    type Result = {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    };
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: unknown) => Promise<Result> } }).axe;
    // Every rule of the tags runs; only the violations' nodes are described (finding a selector
    // for each passing node is most of a scan's time on a long page).
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return r.violations.flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.id} (${v.impact ?? 'no impact'}): ${n.target.map(String).join(' ')} — ${(n.failureSummary ?? v.help).replace(/\s+/g, ' ')}`,
      ),
    );
  }, WCAG_TAGS);
  axeStats.scans++;
  // Only a clean state is remembered: a state with violations fails again wherever it recurs.
  if (lines.length === 0) scanned.add(key);
  return lines.map((l) => `${state}: ${l}`);
}

/** Throws, naming the state, each rule and each node, unless axe finds nothing on the page. */
export async function assertAxeClean(page: Page, state: string): Promise<void> {
  const found = await axeViolations(page, state);
  if (found.length > 0)
    throw new Error(`axe-core (WCAG 2 A/AA) found ${found.length} violation(s):\n${found.join('\n')}`);
}
