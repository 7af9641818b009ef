// Issue 15 items 9/16 for bias probes: exported in 中文, every bias-probes figure (profile,
// paired-difference histograms, length scatter) draws its title, axes, legends and row labels
// in Chinese; judge labels, numbers and the field names output_1/output_2 pass through. The
// English export is unchanged. Runs on the simulated provider, through the real export.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import { tempDir } from '../helpers/tmp';

const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => { window: { DOMParser: typeof DOMParser } };
};
const { DOMParser: XmlParser } = new JSDOM('').window;
const svgTexts = (svg: string) =>
  [...new XmlParser().parseFromString(svg, 'image/svg+xml').querySelectorAll('text')].map(
    (t) => t.textContent ?? '',
  );

const JUDGE = 'Sim judge';
/** English words left once the judge label, field names and the test's abbreviations are out. */
function englishWords(text: string): string[] {
  const rest = text
    .split(JUDGE)
    .join(' ')
    .replace(/output_[12]/g, ' ');
  return (rest.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !/^(Holm|Markdown|CI)$/.test(w));
}

let core: Core;
let dir: string;
let cleanup: () => void;
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({ dataDir: dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
});
afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

async function exportFigures(
  mode: 'pointwise' | 'pairwise',
  lang: 'en' | 'zh',
): Promise<Map<string, string[]>> {
  const name = `bias-zh-${mode}`;
  let id = (await core.call('experiments.list', undefined)).find((e) => e.name === name)?.id;
  if (id === undefined) {
    ({ id } = await core.call('experiments.create', {
      config: {
        name,
        protocol: 'bias-probes',
        dataset: 'LLMBar (sample)',
        limit: 12,
        providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } },
        rewriter: { provider: 'sim', model: 'sim-rewriter' },
        judges: [{ label: JUDGE, provider: 'sim', model: 'sim-judge' }],
        mode,
      },
    }));
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
  }
  const out = join(dir, `export-${mode}-${lang}`);
  await core.call('experiments.export', { experimentId: id, outDir: out, lang });
  const figures = join(out, 'figures');
  return new Map(
    readdirSync(figures)
      .filter((f) => f.endsWith('.svg'))
      .map((f) => [f, svgTexts(readFileSync(join(figures, f), 'utf8'))]),
  );
}

describe('bias-probes figures exported in Chinese', () => {
  for (const mode of ['pointwise', 'pairwise'] as const) {
    it(`translates every drawn word of the ${mode} figures, and leaves the English export English`, async () => {
      const zh = await exportFigures(mode, 'zh');
      expect([...zh.keys()]).toEqual(expect.arrayContaining(['bias_profile.svg', 'length_scatter.svg']));
      expect([...zh.keys()].some((f) => f.startsWith('differences_'))).toBe(true);
      for (const [file, texts] of zh) {
        expect(texts.flatMap(englishWords), file).toEqual([]);
        expect(
          texts.some((t) => /[\u4e00-\u9fff]/.test(t)),
          file,
        ).toBe(true);
      }
      // The simulated mark is translated too; the row labels keep the judge.
      expect(zh.get('bias_profile.svg')!.join('\n')).toMatch(
        /模拟数据 — 偏差概况：各探针的效应（95% 置信区间）/,
      );
      expect(zh.get('bias_profile.svg')!.some((t) => t.startsWith(`${JUDGE} · `))).toBe(true);
      const en = await exportFigures(mode, 'en');
      expect(en.get('bias_profile.svg')!.join('\n')).toMatch(/Bias profile: effect of each probe \(95% CI\)/);
      expect([...en.values()].flat().some((t) => /[\u4e00-\u9fff]/.test(t))).toBe(false);
    }, 120_000);
  }
});
