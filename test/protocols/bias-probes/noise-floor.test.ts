// Bias probes with "noiseFloor": true against the mock provider, pointwise and pairwise, one judge
// on each wire format (OpenAI chat, Anthropic messages; the official SDKs): each effect's unchanged
// side is scored again (sample 1: the original, the plain text, the response shown second), the
// mock answers some repeats differently (planted per model), and the placebo, excess and paired
// change-test rows (exact McNemar on changed vs unchanged, Wilcoxon on |change|) and the pairwise
// accuracy equal what this test recomputes from the mock's own log, with the statistics checked
// against SciPy and statsmodels (/usr/bin/python3).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import type { BiasMetrics, PlaceboRow, ProbeRow } from '../../../src/shared/protocols/bias-probes/types';
import { biasRows, VARIANTS_VIEW } from '../../../src/shared/protocols/bias-probes/views';
import { tempDir } from '../../helpers/tmp';
import { biasResponder, type PairRecord } from '../../mock-provider/bias-responder';
import { startMockProvider, type MockProvider } from '../../mock-provider/server';

const SAMPLE = join(import.meta.dirname, '../../../resources/samples/llmbar.jsonl');
const all: PairRecord[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as PairRecord);
const LIMIT = 60;
const items = all.slice(0, LIMIT);
const REPEAT_CHANGES = { 'gpt-4.1-mini': 0.3, 'claude-haiku-4-5': 0.1 };
const JUDGES = [
  { label: 'GPT judge', provider: 'openai', model: 'gpt-4.1-mini' },
  { label: 'Claude judge', provider: 'anthropic', model: 'claude-haiku-4-5' },
];
const EFFECTS: ProbeRow['effect'][] = ['position', 'longer', 'shorter', 'markdown'];

const responder = biasResponder(all, REPEAT_CHANGES);
let core: Core;
let mock: MockProvider;
let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  core = new Core({
    dataDir: dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 200 },
  });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  mock = await startMockProvider({ latencyMs: [0, 1], respond: responder.respond, logBodies: false });
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

async function run(mode: 'pointwise' | 'pairwise') {
  const { id } = await core.call('experiments.create', {
    config: {
      name: `bias-noise-floor-${mode}`,
      protocol: 'bias-probes',
      dataset: 'LLMBar (sample)',
      limit: LIMIT,
      providers: {
        openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 16 },
        anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 16 },
      },
      rewriter: { provider: 'openai', model: 'rewriter-model' },
      judges: JUDGES,
      mode,
      scale: 5,
      noiseFloor: true,
    },
  });
  const final = await core.experiments.runToEnd(id);
  expect(final.status).toBe('finished');
  const metrics = (await core.call('experiments.results', { experimentId: id })).metrics as BiasMetrics;
  const out = join(dir, `export-${mode}`);
  await core.call('experiments.export', { experimentId: id, outDir: out });
  const rows: Record<string, string>[] = parse(readFileSync(join(out, 'judgments.csv'), 'utf8'), {
    columns: true,
    bom: true,
  });
  const json = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as Record<string, unknown>;
  const variants = biasRows.variants(
    await core.call('experiments.protocolView', { experimentId: id, view: VARIANTS_VIEW }),
  );
  return { metrics, rows, keys: Object.keys(json), variants };
}

/** Each stored row's answer as the mock logged it, found by the ask its reason names. */
const askOf = (r: Record<string, string>) => Number(/ask (\d+)$/.exec(r.reason)?.[1]);

function pointwiseValue(model: string, r: Record<string, string>): number {
  const ask = askOf(r);
  const shown = r.shown === '' ? null : r.shown;
  const hit = responder.scores.find(
    (s) =>
      s.model === model &&
      s.itemId === r.item_id &&
      s.slot === r.response &&
      s.shown === shown &&
      s.ask === ask &&
      // The reason names what the mock took the text for: a plain text equal to the original is
      // the same request, logged as the original.
      (shown !== null || s.condition === /^mock (\S+)/.exec(r.reason)?.[1]),
  );
  if (!hit) throw new Error(`no logged score for ${JSON.stringify(r)}`);
  expect(String(hit.score)).toBe(r.score);
  return hit.score;
}

function pairwiseValue(model: string, r: Record<string, string>): number {
  const ask = askOf(r);
  const item = items.find((i) => i.id === r.item_id)!;
  const firstSlot = r.order === 'orig' ? 'output_1' : 'output_2';
  const candidates = responder.verdicts.filter(
    (v) => v.model === model && v.itemId === r.item_id && v.ask === ask && v.a.slot === firstSlot,
  );
  const shownOf = (v: (typeof candidates)[number]) => new Set([v.a.condition, v.b.condition]);
  const originals = (v: (typeof candidates)[number]) => [...shownOf(v)].every((c) => c === 'original');
  // A plain pair whose texts carry no Markdown is the original request, logged as the original.
  const hit =
    r.condition === 'original'
      ? candidates.find(originals)
      : r.condition === 'plain'
        ? (candidates.find(
            (v) => shownOf(v).has('plain') && [...shownOf(v)].every((c) => c === 'plain' || c === 'original'),
          ) ?? candidates.find(originals))
        : candidates.find((v) => shownOf(v).has(r.condition as 'longer' | 'markdown'));
  if (!hit) throw new Error(`no logged verdict for ${JSON.stringify(r)}`);
  expect(hit.winner).toBe(r.winner);
  // The win score of the worse response (1 win, 0 loss; the mock never ties).
  const worse = item.label === 1 ? 'output_2' : 'output_1';
  const chosen = hit.winner === 'A' ? hit.a.slot : hit.b.slot;
  return chosen === worse ? 1 : 0;
}

type Base = PlaceboRow['repeated'];
/** Each effect's unchanged side, whose repeat is its placebo. */
const PLACEBO_OF: Record<ProbeRow['effect'], Base> = {
  longer: 'original',
  shorter: 'original',
  markdown: 'plain',
  position: 'second',
};

interface Expected {
  placebo: Map<Base, Map<string, number>>;
  effects: Map<ProbeRow['effect'], Map<string, number>>;
}

/** The placebo and effect differences per unit (item × response or order), from the log. */
function expectedOf(
  mode: 'pointwise' | 'pairwise',
  rows: Record<string, string>[],
  model: string,
  label: string,
) {
  const v = new Map<string, number>();
  const key = (...p: string[]) => p.join('|');
  for (const r of rows.filter((x) => x.judge === label && x.status === 'ok'))
    v.set(
      key(r.item_id, mode === 'pointwise' ? r.response : r.order, r.condition, r.shown, r.sample),
      mode === 'pointwise' ? pointwiseValue(model, r) : pairwiseValue(model, r),
    );
  const e: Expected = {
    placebo: new Map((['original', 'plain', 'second'] as const).map((b) => [b, new Map()])),
    effects: new Map(EFFECTS.map((x) => [x, new Map()])),
  };
  const units =
    mode === 'pointwise'
      ? items.flatMap((i) => ['output_1', 'output_2'].map((u) => [i.id, u]))
      : items.flatMap((i) => ['orig', 'swap'].map((u) => [i.id, u]));
  for (const [id, u] of units) {
    const at = (c: string, shown = '', sample = '0') => v.get(key(id, u, c, shown, sample));
    const diff = (a?: number, b?: number) => (a === undefined || b === undefined ? undefined : a - b);
    const put = (m: Map<string, number>, d: number | undefined) => d !== undefined && m.set(key(id, u), d);
    put(e.placebo.get('original')!, diff(at('original', '', '1'), at('original')));
    put(e.placebo.get('plain')!, diff(at('plain', '', '1'), at('plain')));
    if (mode === 'pointwise')
      put(e.placebo.get('second')!, diff(at('original', 'second', '1'), at('original', 'second')));
    put(e.effects.get('longer')!, diff(at('longer'), at('original')));
    put(e.effects.get('markdown')!, diff(at('markdown'), at('plain')));
    if (mode === 'pointwise') {
      put(e.effects.get('shorter')!, diff(at('shorter'), at('original')));
      put(e.effects.get('position')!, diff(at('original', 'first'), at('original', 'second')));
    }
  }
  return e;
}

/**
 * SciPy 1.10 / statsmodels 0.13 on each difference vector with its items: mean, the item-clustered
 * t 95% CI (OLS intercept, cov_type='cluster'), Wilcoxon p on the item means; Wilson; Holm.
 */
function python(job: unknown): {
  effects: { mean: number; ci: [number, number] | null; p: number | null }[];
  wilson: [number, number][];
  holm: number[][];
  signflip: number[];
} {
  const script = `
import json, sys
import numpy as np
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.proportion import proportion_confint
from statsmodels.stats.multitest import multipletests
job = json.load(sys.stdin)
out = {"effects": [], "wilson": [], "holm": [], "signflip": []}
# The item-clustered McNemar: the exact sign-flip law of the items' summed differences.
for d in job.get("signflip", []):
    law, total = np.array([1.0]), 0
    for x in d:
        m = abs(int(x))
        if m:
            step = np.zeros(2 * m + 1); step[0] = step[-1] = 0.5
            law, total = np.convolve(law, step), total + m
    s = np.arange(-total, total + 1)
    out["signflip"].append(float(law[np.abs(s) >= abs(sum(d))].sum()) if total else 1.0)
for e in job["effects"]:
    d = np.array(e["diffs"], dtype=float)
    codes = {k: i for i, k in enumerate(dict.fromkeys(e["items"]))}
    g = np.array([codes[k] for k in e["items"]])
    ci = None
    if len(codes) > 1 and d.std() > 0:
        fit = sm.OLS(d, np.ones_like(d)).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=True)
        if fit.bse[0] > 1e-12:
            ci = [float(x) for x in fit.conf_int(alpha=0.05)[0]]
    means = np.array([d[g == c].mean() for c in range(len(codes))])
    p = 1.0
    if np.any(means != 0):
        p = float(stats.wilcoxon(means, zero_method="wilcox", correction=False, method=e["method"]).pvalue)
    out["effects"].append({"mean": float(d.mean()), "ci": ci, "p": p})
for k, n in job["wilson"]:
    out["wilson"].append(list(proportion_confint(k, n, alpha=0.05, method="wilson")))
for ps in job["holm"]:
    out["holm"].append(list(multipletests(ps, alpha=0.05, method="holm")[1]))
print(json.dumps(out))
`;
  const res = spawnSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(job), encoding: 'utf8' });
  if (res.status !== 0) throw new Error(res.stderr);
  return JSON.parse(res.stdout);
}

function check(mode: 'pointwise' | 'pairwise', metrics: BiasMetrics, rows: Record<string, string>[]) {
  const nf = metrics.noise_floor!;
  const job = {
    effects: [] as { diffs: number[]; items: string[]; method: string }[],
    wilson: [] as number[][],
    holm: [] as number[][],
    signflip: [] as number[][],
  };
  const checks: (() => void)[] = [];
  const bases: Base[] = mode === 'pointwise' ? ['original', 'plain', 'second'] : ['original', 'plain'];
  for (const { label, model } of JUDGES) {
    const e = expectedOf(mode, rows, model, label);
    expect(
      nf.placebo.filter((r) => r.judge === label && r.category === 'all').map((r) => r.repeated),
    ).toEqual(bases);
    for (const base of bases) {
      const placebo = nf.placebo.find(
        (r) => r.judge === label && r.category === 'all' && r.repeated === base,
      )!;
      const units = e.placebo.get(base)!;
      const zero = [...units.values()];
      expect(placebo).toMatchObject({ n: zero.length, changed: zero.filter((d) => d !== 0).length });
      expect(placebo.n).toBe(2 * LIMIT);
      // The planted repeat change comes back within 3.5 SE.
      const p0 = REPEAT_CHANGES[model as keyof typeof REPEAT_CHANGES];
      expect(Math.abs(placebo.changed / placebo.n - p0)).toBeLessThan(
        3.5 * Math.sqrt((p0 * (1 - p0)) / placebo.n),
      );
      const pi =
        job.effects.push({
          diffs: zero,
          items: [...units.keys()].map((k) => k.split('|')[0]),
          method: placebo.p_method ?? 'approx',
        }) - 1;
      checks.push(() => {
        const py = pyOut.effects[pi];
        expect(placebo.mean).toBeCloseTo(py.mean, 12);
        if (py.ci)
          expect(placebo.mean_ci!.map((x) => +x.toFixed(8))).toEqual(py.ci.map((x) => +x.toFixed(8)));
        else expect(placebo.mean_ci_undefined).toMatch(/equal/);
        expect(placebo.p!).toBeCloseTo(py.p!, 10);
      });
      if (mode === 'pairwise') {
        const keys = [...units.keys()];
        // Flippable: the first ask did not choose the worse response (its win score was 0).
        const firstWorse = (k: string) => {
          const r = rows.find(
            (x) =>
              x.judge === label &&
              `${x.item_id}|${x.order}` === k &&
              x.condition === base &&
              x.sample === '0',
          )!;
          return pairwiseValue(model, r);
        };
        const flippable = keys.filter((k) => firstWorse(k) === 0);
        const flips = flippable.filter((k) => units.get(k)! > 0).length;
        expect([placebo.flip_n, placebo.flip_rate]).toEqual([flippable.length, flips / flippable.length]);
        const wi = job.wilson.push([flips, flippable.length]) - 1;
        checks.push(() => {
          expect(placebo.flip_rate_ci![0]).toBeCloseTo(pyOut.wilson[wi][0], 10);
          expect(placebo.flip_rate_ci![1]).toBeCloseTo(pyOut.wilson[wi][1], 10);
        });
      }
    }
    const family = nf.excess.filter((r) => r.judge === label && r.category === 'all');
    const expectedEffects = EFFECTS.filter((x) => e.effects.get(x)!.size > 0);
    expect(family.map((r) => r.effect)).toEqual(expectedEffects);
    for (const row of family) {
      // Each effect against its own placebo: the repeat of the side it starts from.
      expect(row.repeated).toBe(PLACEBO_OF[row.effect]);
      const placebo = e.placebo.get(row.repeated)!;
      const pairs = [...e.effects.get(row.effect)!].filter(([k]) => placebo.has(k));
      const diffs = pairs.map(([k, d]) => d - placebo.get(k)!);
      expect(row.n).toBe(diffs.length);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(row.effect_mean).toBeCloseTo(mean(pairs.map(([, d]) => d)), 12);
      expect(row.placebo_mean).toBeCloseTo(mean(pairs.map(([k]) => placebo.get(k)!)), 12);
      // Changed vs unchanged on the same units, probe against repeat.
      const probeOnly = pairs.filter(([k, d]) => d !== 0 && placebo.get(k) === 0).length;
      const repeatOnly = pairs.filter(([k, d]) => d === 0 && placebo.get(k) !== 0).length;
      expect([row.changed_probe, row.changed_repeat, row.probe_only, row.repeat_only]).toEqual([
        pairs.filter(([, d]) => d !== 0).length,
        pairs.filter(([k]) => placebo.get(k) !== 0).length,
        probeOnly,
        repeatOnly,
      ]);
      const absDiffs = pairs.map(([k, d]) => Math.abs(d) - Math.abs(placebo.get(k)!));
      expect(row.abs_probe_mean).toBeCloseTo(mean(pairs.map(([, d]) => Math.abs(d))), 12);
      expect(row.abs_repeat_mean).toBeCloseTo(mean(pairs.map(([k]) => Math.abs(placebo.get(k)!))), 12);
      // The probe row's mean is the same effect over every unit (the placebo only adds a repeat).
      const probe = metrics.probes.find(
        (r) => r.judge === label && r.category === 'all' && r.effect === row.effect,
      )!;
      expect(probe.n).toBe(e.effects.get(row.effect)!.size);
      const unitItems = pairs.map(([k]) => k.split('|')[0]);
      const xi = job.effects.push({ diffs, items: unitItems, method: row.p_method ?? 'approx' }) - 1;
      const ai =
        job.effects.push({ diffs: absDiffs, items: unitItems, method: row.abs_p_method ?? 'approx' }) - 1;
      // The change test's unit is the item: its two units' (responses' or orders') +1 / −1 summed.
      const perItem = new Map<string, number>();
      for (const [k, d] of pairs) {
        const r = placebo.get(k)!;
        const x = (d !== 0) === (r !== 0) ? 0 : d !== 0 ? 1 : -1;
        const item = k.split('|')[0];
        perItem.set(item, (perItem.get(item) ?? 0) + x);
      }
      const bi = job.signflip.push([...perItem.values()]) - 1;
      checks.push(() => {
        const py = pyOut.effects[xi];
        expect(row.excess).toBeCloseTo(py.mean, 12);
        if (py.ci) expect(row.excess_ci!.map((x) => +x.toFixed(8))).toEqual(py.ci.map((x) => +x.toFixed(8)));
        else expect(row.excess_ci_undefined).toMatch(/equal/);
        expect(row.p!).toBeCloseTo(py.p!, 10);
        expect(row.abs_p).toBeCloseTo(pyOut.effects[ai].p!, 10);
        expect(row.changed_p).toBeCloseTo(pyOut.signflip[bi], 10);
      });
    }
    const hi = job.holm.push(family.map((r) => r.p!)) - 1;
    const hc = job.holm.push(family.map((r) => r.changed_p)) - 1;
    const ha = job.holm.push(family.map((r) => r.abs_p)) - 1;
    checks.push(() => {
      family.forEach((r, i) => {
        expect(r.p_holm!).toBeCloseTo(pyOut.holm[hi][i], 12);
        expect(r.significant).toBe(r.p_holm! < 0.05);
        expect(r.changed_p_holm!).toBeCloseTo(pyOut.holm[hc][i], 12);
        expect(r.abs_p_holm!).toBeCloseTo(pyOut.holm[ha][i], 12);
      });
    });
  }
  const pyOut = python(job);
  for (const c of checks) c();
  return nf;
}

describe('bias probes noise floor through the mock provider (both wire formats)', () => {
  it('pointwise: repeats each effect’s unchanged side; placebo, excess and change tests equal the log, SciPy and statsmodels', async () => {
    const { metrics, rows, keys, variants } = await run('pointwise');
    expect(keys.at(-1)).toBe('noise_floor');
    // The variant browser shows each judge's repeat of the variant's base beside its first answer
    // (the stored sample-1 score): the original's, or the plain text's for a Markdown variant.
    let changed = 0;
    for (const v of variants)
      for (const j of v.judgments) {
        const stored = rows.find(
          (r) =>
            r.judge === j.judge &&
            r.item_id === v.itemId &&
            r.response === v.response &&
            r.condition === v.baseLabel &&
            r.shown === '' &&
            r.sample === '1',
        )!;
        expect(j.repeat?.value).toBe(stored.score);
        if (j.repeat!.value !== j.base!.value) changed++;
      }
    // The mock changes 30 % (GPT) and 10 % (Claude) of repeats: some rows show it.
    expect(changed).toBeGreaterThan(0);
    // Per judge × item × response, one repeat of each effect's unchanged side (sample 1): the
    // original, the plain text and the score shown second with the pair in view.
    const repeats = rows.filter((r) => r.sample === '1');
    expect(repeats.length).toBe(JUDGES.length * 2 * LIMIT * 3);
    expect(new Set(repeats.map((r) => `${r.condition}|${r.shown}`))).toEqual(
      new Set(['original|', 'plain|', 'original|second']),
    );
    const nf = check('pointwise', metrics, rows);
    // The large planted length effect clears the noise floor; the markdown one is smaller.
    expect(
      nf.excess.find((r) => r.judge === 'GPT judge' && r.category === 'all' && r.effect === 'longer')!
        .significant,
    ).toBe(true);
  }, 600_000);

  it('pairwise: repeats the original and plain pairs in both orders; flip rate, excess, change tests and accuracy from the log', async () => {
    const { metrics, rows, keys, variants } = await run('pairwise');
    expect(keys.at(-1)).toBe('noise_floor');
    // The browser's repeat of the original pair, per order, read like its first answer.
    const repeats = variants
      .filter((v) => v.baseLabel === 'original')
      .flatMap((v) => v.judgments.map((j) => j.repeat));
    expect(repeats.length).toBeGreaterThan(0);
    expect(repeats.every((r) => r && ['worse', 'better', 'tie'].includes(r.value))).toBe(true);
    // The original and the plain pair asked again in both orders.
    const repeated = rows.filter((r) => r.sample === '1');
    expect(repeated.length).toBe(JUDGES.length * 2 * LIMIT * 2);
    expect(new Set(repeated.map((r) => r.condition))).toEqual(new Set(['original', 'plain']));
    check('pairwise', metrics, rows);
    // Gold labels: accuracy per judge × variant, counted from the stored first asks.
    for (const { label, model } of JUDGES)
      for (const a of metrics.accuracy!.filter((r) => r.judge === label && r.category === 'all')) {
        const firsts = rows.filter(
          (r) => r.judge === label && r.status === 'ok' && r.condition === a.variant && r.sample === '0',
        );
        // Win score of the worse response 0: the better (gold) one was chosen (the mock never ties).
        const correct = firsts.filter((r) => pairwiseValue(model, r) === 0).length;
        expect([a.n, a.correct, a.ties]).toEqual([firsts.length, correct, 0]);
      }
  }, 600_000);
});
