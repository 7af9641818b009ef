#!/usr/bin/env node
// Runs bench/flip-browser.ts in Chromium: bundles it with rolldown (CSS inlined as <style>),
// loads it into a blank page with playwright-core and prints the measured figures.
// Usage: node bench/flip-browser-run.mjs [--runs N] [--json]
// Each run is a fresh page; the figures printed are the median over the runs (frame times are
// sensitive to whatever else the machine is doing, so one run alone can mislead).
import console from 'node:console';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Turns `import './x.css'` into a <style> element, as the app's bundler does with its own CSS. */
const inlineCss = {
  name: 'inline-css',
  load(id) {
    if (!id.endsWith('.css')) return null;
    const css = JSON.stringify(readFileSync(id, 'utf8'));
    return {
      code: `const s = document.createElement('style'); s.textContent = ${css}; document.head.appendChild(s);`,
      moduleType: 'js',
    };
  },
};

async function bundle() {
  const t0 = performance.now();
  const out = await build({
    input: join(root, 'bench/flip-browser.ts'),
    platform: 'browser',
    plugins: [inlineCss],
    transform: { jsx: 'react-jsx', define: { 'process.env.NODE_ENV': '"production"' } },
    write: false,
    output: { format: 'iife', name: 'flipBench', minify: true },
  });
  const chunk = out.output.find((o) => o.type === 'chunk');
  return { code: chunk.code, ms: performance.now() - t0 };
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const frames = (f) =>
  `p50 ${fmt(f.p50)}, p95 ${fmt(f.p95)}, max ${fmt(f.max)}; frames > 25 ms: ${f.over25ms}/200; rows in DOM ${f.rowsInDom}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The median of every numeric figure over the runs (same shape as one run). */
function medianOf(runs) {
  const pick = (get) => median(runs.map(get));
  const scroll = (k) => ({
    p50: pick((r) => r[k].p50),
    p95: pick((r) => r[k].p95),
    max: pick((r) => r[k].max),
    over25ms: pick((r) => r[k].over25ms),
    rowsInDom: pick((r) => r[k].rowsInDom),
  });
  return {
    judgments: runs[0].judgments,
    flips: runs[0].flips,
    count: runs[0].count,
    computeMs: pick((r) => r.computeMs),
    rowsMs: pick((r) => r.rowsMs),
    paintedMs: pick((r) => r.paintedMs),
    smooth: scroll('smooth'),
    jumps: scroll('jumps'),
  };
}

async function main() {
  const runsArg = process.argv.indexOf('--runs');
  const runCount = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 3;
  const { code, ms: bundleMs } = await bundle();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const runs = [];
    for (let i = 0; i < runCount; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setContent(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><div id="root"></div></body></html>',
      );
      await page.addScriptTag({ content: code });
      runs.push(await page.evaluate(() => globalThis.__flipBench));
      if (errors.length) throw new Error(errors.join('\n'));
      await page.close();
    }
    const result = medianOf(runs);
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify({ bundleMs, median: result, runs }, null, 2));
      return;
    }
    console.log(
      `Flip browser benchmark (Chromium ${browser.version()}, headless, 1280×820; median of ${runCount} runs)`,
    );
    console.log(
      `  seeded: ${result.judgments} judgments → ${result.flips} flips (list shows "${result.count}")`,
    );
    console.log(`  indexing alone (flips etc.): ${fmt(result.computeMs)}`);
    console.log(`  first render (rows in DOM):  ${fmt(result.rowsMs)}`);
    console.log(`  first render (next frame):   ${fmt(result.paintedMs)}`);
    console.log(`  scroll, 300 px/frame:        ${frames(result.smooth)}`);
    console.log(`  scroll, random jumps:        ${frames(result.jumps)}`);
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
