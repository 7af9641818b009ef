// Flip browser benchmark, run in Chromium by flip-browser-run.mjs: 50,000 seeded flips through
// the real FlipBrowserPage (React, the virtualizer, the app's CSS) and an in-memory ApiClient.
// Reports the first render time and frame times while scrolling, via window.__flipBench.
import { createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { ApiClient, MethodName } from '../src/shared/api';
import type { JudgmentView } from '../src/shared/protocols/judge-ls/views';
import type { QualityOrder, Winner } from '../src/shared/protocols/judge-ls/types';
import { setApi } from '../src/renderer/src/api';
import '../src/renderer/src/i18n';
import '../src/renderer/src/styles/base.css';
import '../src/renderer/src/styles/frame.css';
import '../src/renderer/src/styles/items.css';
import { FlipBrowserPage } from '../src/renderer/src/protocols/judge-ls/flips/FlipBrowserPage';
import type { Choice } from '../src/renderer/src/protocols/judge-ls/flips/flips';
import { buildFlipData } from '../src/renderer/src/protocols/judge-ls/flips/useFlipData';

const JUDGES = 4;
const ITEMS = 6250; // 4 judges × 6,250 items × 2 orders = 50,000 (judge, item, order) slots.
const SUBSETS = ['Natural', 'Adversarial/Neighbor', 'Adversarial/GPTInst', 'Adversarial/Manual'];
const SCROLL_STEPS = 200;
const SCROLL_PX_PER_FRAME = 300;

const winnerOf = (c: Choice, order: QualityOrder): Winner =>
  c === 'tie' ? 'tie' : (c === 1) === (order === 'orig') ? 'A' : 'B';

/**
 * Every (judge, item, order) flips exactly once, between EN and ZH (LS keeps the EN verdict), so
 * the browser shows exactly 50,000 flips; the five flip types take turns.
 */
export function seedFlipJudgments(): JudgmentView[] {
  const out: JudgmentView[] = [];
  const base = { status: 'ok' as const, failureReason: null, rawText: null, attempts: 1, confidence: 0.8 };
  for (let j = 0; j < JUDGES; j++) {
    const judge = `Judge ${j + 1} (model-${j})`;
    for (let i = 1; i <= ITEMS; i++) {
      const gold: 1 | 2 = i % 2 === 0 ? 2 : 1;
      const wrong: 1 | 2 = gold === 1 ? 2 : 1;
      const common = {
        judge,
        itemId: i,
        sourceId: `LLMBar-${String(i).padStart(5, '0')}`,
        subset: SUBSETS[i % 4],
        gold,
      };
      for (const order of ['orig', 'swap'] as const) {
        const pattern: [Choice, Choice][] = [
          [gold, wrong],
          [wrong, gold],
          [gold, 'tie'],
          ['tie', gold],
          [gold, wrong],
        ];
        const [en, zh] = pattern[(i + j + (order === 'swap' ? 1 : 0)) % pattern.length];
        const reasonEn = `Output ${en} follows the instruction for item ${i} more closely and its answer is correct and complete.`;
        const reasonZh = `输出 ${zh} 更符合第 ${i} 题的指令，答案正确且完整。`;
        out.push({
          ...common,
          ...base,
          kind: 'quality',
          language: 'EN',
          order,
          winner: winnerOf(en, order),
          reason: reasonEn,
        });
        out.push({
          ...common,
          ...base,
          kind: 'quality',
          language: 'ZH',
          order,
          winner: winnerOf(zh, order),
          reason: reasonZh,
        });
        out.push({
          ...common,
          ...base,
          kind: 'quality',
          language: 'LS',
          order,
          winner: winnerOf(en, order),
          reason: reasonEn,
        });
      }
      for (const order of ['en_zh', 'zh_en'] as const) {
        out.push({
          ...common,
          ...base,
          kind: 'tie_probe',
          language: 'EN-ZH',
          order,
          winner: 'tie',
          reason: 'Same content.',
        });
      }
    }
  }
  return out;
}

function benchApi(judgments: JudgmentView[]): ApiClient {
  const flagged = Array.from({ length: ITEMS / 50 }, (_, k) => ({
    item_id: `LLMBar-${String(k * 50 + 1).padStart(5, '0')}`,
    reasons: ['ZH.output_1: numbers_missing (EN 2, ZH 0)'],
  }));
  const answers: Partial<Record<MethodName, () => unknown>> = {
    'experiments.protocolView': () => judgments,
    'experiments.flagged': () => ({ flagged }),
    'experiments.get': () => ({ id: 1, datasetId: 1 }),
    'items.list': () => [],
  };
  return {
    call: (async (method: MethodName) => {
      const answer = answers[method];
      if (!answer) throw new Error(`bench API: ${method} is not seeded`);
      return answer();
    }) as ApiClient['call'],
    on: () => () => {},
  };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    p50: quantile(s, 0.5),
    p95: quantile(s, 0.95),
    max: s[s.length - 1],
    over25ms: s.filter((x) => x > 25).length,
  };
};
const frame = () => new Promise<number>((r) => requestAnimationFrame(r));

function waitFor(selector: string): Promise<Element> {
  return new Promise((resolve) => {
    const found = document.querySelector(selector);
    if (found) return resolve(found);
    const observer = new MutationObserver(() => {
      const el = document.querySelector(selector);
      if (el) {
        observer.disconnect();
        resolve(el);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

/** Frame-to-frame times while `move` changes the list's scroll position once per frame. */
async function scrollFrames(list: HTMLElement, move: (step: number) => number) {
  const times: number[] = [];
  // Long animation frames (Chromium): how much of a slow frame was script and how much rendering.
  const loaf = { frames: 0, scriptMs: 0, renderMs: 0 };
  const observer =
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('long-animation-frame')
      ? new PerformanceObserver((l) => {
          for (const e of l.getEntries() as (PerformanceEntry & {
            renderStart: number;
            styleAndLayoutStart: number;
          })[]) {
            loaf.frames++;
            const renderStart = e.renderStart || e.startTime + e.duration;
            loaf.scriptMs += renderStart - e.startTime;
            loaf.renderMs += e.startTime + e.duration - renderStart;
          }
        })
      : null;
  observer?.observe({ type: 'long-animation-frame', buffered: false });
  let last = await frame();
  for (let step = 0; step < SCROLL_STEPS; step++) {
    list.scrollTop = move(step);
    const now = await frame();
    times.push(now - last);
    last = now;
  }
  // The virtualizer kept up: the rows in the DOM are the ones at the final scroll position.
  await frame();
  observer?.disconnect();
  const expected = Math.floor(list.scrollTop / 40);
  const shown = [...list.querySelectorAll<HTMLElement>('[data-testid="flip-row"]')].map((r) =>
    Number(r.dataset.index),
  );
  if (!shown.includes(expected))
    throw new Error(`row ${expected} not rendered after scrolling (shown ${shown[0]}…)`);
  return { ...stats(times), rowsInDom: shown.length, longFrames: loaf };
}

async function run() {
  const judgments = seedFlipJudgments();
  // The page's own indexing step (flips, search text, per-item verdicts), timed alone.
  const c0 = performance.now();
  const flipCount = buildFlipData(judgments, [], 1).flips.length;
  const computeMs = performance.now() - c0;
  if (flipCount !== 50_000) throw new Error(`seeded ${flipCount} flips, expected 50,000`);
  setApi(benchApi(judgments));

  function Harness() {
    const [query, setQuery] = useState<Record<string, string>>({});
    return createElement(FlipBrowserPage, {
      experimentId: 1,
      query,
      onNavigate: (r) => r.name === 'experiment-page' && setQuery(r.query),
    });
  }

  const t0 = performance.now();
  createRoot(document.getElementById('root')!).render(createElement(Harness));
  await waitFor('[data-testid="flip-row"]');
  const rowsMs = performance.now() - t0;
  await frame();
  const paintedMs = performance.now() - t0;
  const count = document.querySelector('[data-testid="flip-count"]')!.textContent;

  const list = document.querySelector<HTMLElement>('[data-testid="flip-list"]')!;
  const smooth = await scrollFrames(list, (s) => (s + 1) * SCROLL_PX_PER_FRAME);
  let seed = 7;
  const jumps = await scrollFrames(list, () => {
    seed = (seed * 16807) % 2147483647;
    return (seed / 2147483647) * (list.scrollHeight - list.clientHeight);
  });
  return {
    judgments: judgments.length,
    flips: flipCount,
    count,
    computeMs,
    rowsMs,
    paintedMs,
    smooth,
    jumps,
  };
}

declare global {
  interface Window {
    __flipBench?: Promise<unknown>;
  }
}
window.__flipBench = run();
