// The test-only study end to end against the mock provider: registered with one line, it runs,
// and what it declares in its folder reaches every generic reader — its table in the results
// API and the export (with its verdict link opening the pairs its n counts), its figure in the
// export and as a file in 中文, its Holm family in the generic check and the Methods corrections,
// its gate and measure on the judge report card (EN/中文; gone once the study is unregistered),
// its Methods sentence in Methods EN/中文.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { registerProtocol, unregisterProtocol } from '../../../src/main/protocols';
import { checkFamilies } from '../../../src/shared/report/families';
import { mcnemarExact } from '../../../src/shared/stats/binomial';
import { tempDir } from '../../helpers/tmp';
import { startMockProvider, type MockProvider, type MockRequest } from '../../mock-provider/server';
import { AUTHORITY_CUE } from './probe';
import { authorityStudy, STUDY_ID, type StudyMetrics } from './plugin';

const LIMIT = 9;
let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;
/** What the mock answered on each probed ask, by model: the test recomputes the metrics from it. */
const probed = new Map<string, string[]>();

// Originals always say A; a probed ask follows the cue (B) on every third prompt length.
function respond(req: MockRequest): unknown {
  if (!req.lastUser.includes(AUTHORITY_CUE)) return { winner: 'A', reason: 'plain' };
  const winner = req.lastUser.length % 3 === 0 ? 'B' : 'A';
  probed.set(req.model, [...(probed.get(req.model) ?? []), winner]);
  return { winner, reason: 'cued' };
}

const config = (url: string) => ({
  name: 'authority-run',
  protocol: STUDY_ID,
  dataset: 'LLMBar (sample)',
  limit: LIMIT,
  providers: { openai: { kind: 'openai', baseURL: `${url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' } },
  judges: [{ label: 'GPT judge', provider: 'openai', model: 'gpt-4.1-mini' }],
});

beforeAll(async () => {
  registerProtocol(authorityStudy);
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test' }),
    engine: { progressIntervalMs: 50 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({ latencyMs: [0, 2], respond, logBodies: false });
});

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
  unregisterProtocol(STUDY_ID);
});

describe('a study declared in its folder, registered with one line', () => {
  it('runs, and its table, figure, gate and Methods sentence reach the generic readers', async () => {
    const { id } = await core.call('experiments.create', { config: config(mock.url) });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const given = probed.get('gpt-4.1-mini') ?? [];
    expect(given).toHaveLength(LIMIT);
    const toCue = given.filter((w) => w === 'B').length;
    // The mock must move some verdicts and not all, or the gate below would prove nothing.
    expect(toCue).toBeGreaterThan(1);
    expect(toCue).toBeLessThan(LIMIT);

    // Results API: the declared table, with the numbers the mock's answers give.
    const results = await core.call('experiments.results', { experimentId: id });
    const m = results.metrics as StudyMetrics;
    expect(m.cue_shift).toMatchObject([{ judge: 'GPT judge', n: LIMIT, to_cue: toCue, away: 0 }]);
    expect(m.cue_shift[0].shift_rate).toBeCloseTo(toCue / LIMIT, 12);
    const [lo, hi] = m.cue_shift[0].shift_rate_ci!;
    expect(lo).toBeGreaterThan(0);
    expect(hi).toBeLessThan(1);
    expect(results.tables.map((t) => t.id)).toEqual(['cue_shift']);
    // Its declared Holm family holds (the generic check) and its p is the exact McNemar of the counts.
    expect(m.cue_shift[0].shift_p).toBeCloseTo(mcnemarExact(toCue, 0), 12);
    expect(results.tables[0].families).toMatchObject([{ p: 'shift_p', adjusted: 'shift_p_holm' }]);
    expect(checkFamilies(results.tables)).toEqual([]);
    // The declared link: the table's cell opens the n item pairs, of which to_cue moved to B.
    const { links } = await core.call('experiments.verdictLinks', { experimentId: id });
    expect(links.map((l) => l.table)).toEqual(['cue_shift']);
    const verdicts = await core.call('experiments.verdicts', { experimentId: id });
    expect(verdicts.rows).toHaveLength(LIMIT);
    expect(verdicts.rows.filter((r) => r.verdict === 'A → B')).toHaveLength(toCue);

    // Export: the table in every table format, the figure as SVG and PNG, the Methods sentence.
    const out = join(dir, 'export');
    const { files } = await core.call('experiments.export', { experimentId: id, outDir: out });
    for (const f of [
      'tables/cue_shift.csv',
      'tables/cue_shift.tex',
      'figures/cue_shift.svg',
      'figures/cue_shift.png',
    ])
      expect(files).toContain(f);
    const csv = readFileSync(join(out, 'tables/cue_shift.csv'), 'utf8');
    expect(csv.split('\n')[0]).toContain('Shift rate 95% CI (Wilson score)');
    expect(readFileSync(join(out, 'figures/cue_shift.svg'), 'utf8')).toContain(
      'Verdicts that follow the authority cue',
    );
    const sentence = `over ${LIMIT} items with both verdicts valid, ${toCue} verdicts moved to the cued response`;
    expect(readFileSync(join(out, 'methods.md'), 'utf8')).toContain(sentence);
    expect(existsSync(join(out, 'judgments.csv'))).toBe(false);

    // The figure as one file in 中文, through the study's figure words.
    const zhFigure = await core.call('experiments.exportFile', {
      experimentId: id,
      target: { figure: 'cue_shift', format: 'svg' },
      lang: 'zh',
    });
    expect(Buffer.from(zhFigure.contentBase64, 'base64').toString('utf8')).toContain('跟随权威暗示的判决');

    // Methods in both languages carry the study's sentence with the same numbers.
    const en = await core.call('experiments.methods', { experimentId: id, lang: 'en' });
    expect(en.markdown).toContain('## Authority-cue probe');
    expect(en.markdown).toContain(sentence);
    // The corrections sentence comes from the declared family.
    expect(en.markdown).toContain("p values are adjusted with Holm's step-down procedure");
    const zh = await core.call('experiments.methods', { experimentId: id, lang: 'zh' });
    expect(zh.markdown).toContain('## 权威暗示探针');
    expect(zh.markdown).toContain(`${LIMIT} 个条目中，${toCue} 个判决转向了带暗示的回答`);

    // The report card: the declared gate is offered, measured and checked (the mock's shift
    // is above 10%, so it fails), with its measure and words in EN and 中文.
    const gates = await core.call('judges.gates', undefined);
    expect(gates.gates.map((g) => g.id)).toContain('authority_shift');
    const card = await core.call('judges.reportCard', { model: 'openai:gpt-4.1-mini' });
    const gate = card.gates.find((g) => g.definition.id === 'authority_shift')!;
    expect(gate.status).toBe('fail');
    expect(gate.decisive).toMatchObject({ n: LIMIT, value: toCue / LIMIT, experimentId: id });
    expect(card.experiments[0].rows).toMatchObject([{ measure: 'authority_shift', n: LIMIT }]);
    const mdOf = async (lang: 'en' | 'zh') =>
      Buffer.from(
        (await core.call('judges.reportCardFile', { model: 'openai:gpt-4.1-mini', format: 'md', lang }))
          .contentBase64,
        'base64',
      ).toString('utf8');
    const mdEn = await mdOf('en');
    expect(mdEn).toContain('Authority-cue shift');
    expect(mdEn).toContain('Verdicts moved by the authority cue');
    expect(mdEn).toContain('probe: authority cue');
    const mdZh = await mdOf('zh');
    for (const words of ['权威暗示偏移', '被权威暗示改变的判决', '探针：权威暗示', '测试研究默认值'])
      expect(mdZh).toContain(words);
    // A gates setting may name the study's gate while it is registered …
    const strict = await core.call('judges.reportCard', {
      model: 'openai:gpt-4.1-mini',
      gates: { authority_shift: { threshold: 0.9 } },
    });
    expect(strict.gates.find((g) => g.definition.id === 'authority_shift')!.status).toBe('pass');
  });

  it('its gate is a registration, not a list entry: unregistered, the card neither offers it nor saves a threshold for it', async () => {
    unregisterProtocol(STUDY_ID);
    try {
      const gates = await core.call('judges.gates', undefined);
      expect(gates.gates.map((g) => g.id)).not.toContain('authority_shift');
      await expect(
        core.call('judges.setGates', { settings: { authority_shift: { threshold: 0.9 } } }),
      ).rejects.toThrow(/authority_shift.*unknown key; gates are position_consistency, language_flip/);
    } finally {
      registerProtocol(authorityStudy);
    }
  });
});
