// `judge-lab estimate` (issue 24): the cost and the power plan of a config, before and after a
// pilot. Figures are the power functions' (checked against statsmodels in
// test/stats/power.test.ts); this checks which rates and counts the plan feeds them: the
// defaults without a pilot, the pilot's observed rates (from its exported metrics.json) after one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CostEstimate } from '../../src/shared/experiments';
import {
  mcnemarExactMde,
  mcnemarExactSampleSize,
  exactBinomialMde,
  fisherZMde,
  pairedTMde,
  pairedTSampleSize,
  wilcoxonMde,
} from '../../src/shared/stats/power';
import { assertBuilt, ROOT, runCliInProcess } from '../helpers/cli';
import { keylessEnv, runKeylessInProcess } from '../helpers/cli-simulated';
import { tempDir } from '../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl');
const ITEMS = 20;

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

function writeConfig(name: string): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      protocol: 'judge-ls',
      dataset: SAMPLE,
      providers: { demo: { kind: 'simulated', latencyMs: 1, rpm: 60000, concurrency: 8 } },
      transform: { provider: 'demo', model: 'sim-translator', languages: ['ZH', 'LS'] },
      judges: [
        { label: 'Sim strong', provider: 'demo', model: 'sim-judge-strong' },
        { label: 'Sim weak', provider: 'demo', model: 'sim-judge-weak' },
      ],
      prices: {
        'sim-translator': { input: 0, output: 0 },
        'sim-judge-strong': { input: 0, output: 0 },
        'sim-judge-weak': { input: 0, output: 0 },
      },
    }),
  );
  return file;
}

async function estimate(cfg: string, data: string, extra: string[] = []): Promise<CostEstimate> {
  const r = await runCliInProcess(['estimate', cfg, '--data-dir', data, '--json', ...extra], keylessEnv());
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as CostEstimate;
}

describe('judge-lab estimate: the power plan beside the cost', () => {
  it('plans with default rates before any run, with the pilot’s rates after one, and answers the inverse', async () => {
    const data = join(dir, 'data');
    const plan = writeConfig('power-plan');
    const before = (await estimate(plan, data)).power!;
    expect(before.pilot).toBeNull();
    expect(before.alpha).toBe(0.05);
    expect(before.power).toBe(0.8);
    const ids = before.comparisons.map((c) => c.id);
    expect(ids).toEqual([
      'accuracy_change:EN-ZH',
      'flip_rate:EN-ZH',
      'accuracy_change:EN-LS',
      'flip_rate:EN-LS',
      'human_agreement',
    ]);
    const change = before.comparisons[0];
    // Both answer orders of 20 items, counted one unit per item: an item's two orders are
    // correlated, and counting them as 40 independent pairs promised an effect √2 too small.
    expect(change.n).toBe(ITEMS);
    expect(change.unit).toBe('items');
    expect(change.assumptions).toEqual([
      { key: 'psi', name: 'discordant share ψ', value: 0.2, source: 'default' },
    ]);
    // 20 items with ψ = 0.2 leave about 4 discordant ones: no change reaches 80% power, which 40
    // independent pairs had promised.
    expect(mcnemarExactMde(ITEMS, 0.2)).toBeNull();
    expect(mcnemarExactMde(ITEMS * 2, 0.2)).not.toBeNull();
    expect(change.mde).toBeNull();
    expect(change.mdeUndefined).toMatch(/is not detected with 20 items/);
    expect(change.itemsNeeded).toBe(mcnemarExactSampleSize(0.2, 0.05)!);
    expect(before.comparisons[1].mde).toBeCloseTo(exactBinomialMde(ITEMS, 0.05, 'up')! - 0.05, 12);
    expect(before.comparisons[4].mde).toBeCloseTo(
      fisherZMde(ITEMS, 0.8, 'up', undefined, undefined, true)!,
      12,
    );

    // The text names the test and the rates' source.
    const text = await runCliInProcess(['estimate', plan, '--data-dir', data], keylessEnv());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /Power \(80% power, two-sided α = 0\.05; no earlier run of these judges: default rates\)/,
    );
    expect(text.stdout).toContain('exact McNemar test, unconditional power');
    expect(text.stdout).toContain('Fisher-z interval of Spearman ρ');

    // A pilot: the simulated demo with the same judges under another name.
    const out = join(dir, 'pilot-out');
    await runKeylessInProcess(writeConfig('pilot'), 'pilot', out, data);
    const metrics = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as {
      language_invariance: {
        comparison: string;
        n: number;
        en_only_correct: number;
        target_only_correct: number;
      }[];
    };
    const rows = metrics.language_invariance.filter((r) => r.comparison === 'EN-ZH');
    const psi =
      rows.reduce((s, r) => s + r.en_only_correct + r.target_only_correct, 0) /
      rows.reduce((s, r) => s + r.n, 0);
    const after = (await estimate(plan, data, ['--effect', 'accuracy_change:EN-ZH=0.1'])).power!;
    expect(after.pilot).toMatchObject({ name: 'pilot', simulated: true });
    const zh = after.comparisons[0];
    expect(zh.assumptions).toEqual([{ key: 'psi', name: 'discordant share ψ', value: psi, source: 'pilot' }]);
    expect(zh.effect).toBe(0.1);
    expect(zh.effectTyped).toBe(true);
    if (psi >= 0.1) expect(zh.itemsNeeded).toBe(mcnemarExactSampleSize(psi, 0.1)!);
    else expect(zh.itemsUndefined).toMatch(/larger than the discordant share/);
    expect(zh.effectSource).toBe('user');
    // The flip-rate effect is the pilot's rise over p0 when it has one, and says so (issue 32 item 8).
    const flipRows = metrics.language_invariance.filter((r) => r.comparison === 'EN-ZH') as unknown as {
      n: number;
      flip_rate: number;
    }[];
    const flip = flipRows.reduce((s, r) => s + r.flip_rate * r.n, 0) / flipRows.reduce((s, r) => s + r.n, 0);
    const flipRow = after.comparisons[1];
    expect(flipRow.effectSource).toBe(flip > 0.05 ? 'pilot' : 'default');
    if (flip > 0.05) expect(flipRow.effect).toBeCloseTo(flip - 0.05, 12);
    const afterText = await runCliInProcess(['estimate', plan, '--data-dir', data], keylessEnv());
    expect(afterText.stdout).toContain(`rates from the pilot "pilot"`);
    expect(afterText.stdout).toMatch(
      flip > 0.05
        ? /\[flip_rate:EN-ZH\]\n.*\n.*for an effect of [0-9.]+ \(pilot run "pilot"\)/
        : /\(default\)/,
    );

    // A bad --effect is a usage error naming the expected form, and nothing is written.
    const bad = await runCliInProcess(
      ['estimate', plan, '--data-dir', data, '--effect', 'oops'],
      keylessEnv(),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/expected ID=NUMBER/);
  }, 600_000);

  it('plans bias probes (paired t and Wilcoxon per probe) and reference sensitivity (McNemar on C1 − C2 and NR→RV)', async () => {
    const data = join(dir, 'data2');
    const sim = { sim: { kind: 'simulated', latencyMs: 0 } };
    const bias = join(dir, 'bias.json');
    writeFileSync(
      bias,
      JSON.stringify({
        name: 'bias-plan',
        protocol: 'bias-probes',
        dataset: join(ROOT, 'resources', 'samples', 'llmbar.jsonl'),
        limit: 30,
        providers: sim,
        rewriter: { provider: 'sim', model: 'sim-rewriter' },
        judges: [{ label: 'J', provider: 'sim', model: 'sim-judge' }],
        mode: 'pointwise',
      }),
    );
    const b = (await estimate(bias, data)).power!;
    // Pointwise, each of an LLMBar item's two responses is scored alone and gives a difference of
    // its own: the probes' tests count 60 responses, and so does the plan (issue 33: the end-to-end
    // length cell detected a planted effect far above a plan that counted 30).
    expect(b.comparisons.map((c) => `${c.id} ${c.model} ${c.n} ${c.unit}`)).toEqual([
      'paired_difference:position paired-t 60 responses',
      'paired_difference:position:wilcoxon wilcoxon-are 60 responses',
      'paired_difference:longer paired-t 60 responses',
      'paired_difference:longer:wilcoxon wilcoxon-are 60 responses',
      'paired_difference:shorter paired-t 60 responses',
      'paired_difference:shorter:wilcoxon wilcoxon-are 60 responses',
      'paired_difference:markdown paired-t 60 responses',
      'paired_difference:markdown:wilcoxon wilcoxon-are 60 responses',
      'human_agreement fisher-z 30 items',
    ]);
    expect(b.comparisons[0].mde).toBeCloseTo(pairedTMde(60)!, 12);
    expect(b.comparisons[1].mde).toBeCloseTo(wilcoxonMde(60)!, 12);
    // d_z 0.3 (the default) needs 90 pairs for the t (Cohen's table: 88–90): 45 items of two responses.
    expect(b.comparisons[0].itemsNeeded).toBe(Math.ceil(Math.ceil(pairedTSampleSize(0.3)!) / 2));

    // Pairwise, the run reports the paired position test (both-first vs both-second items, exact
    // McNemar): that is what the plan plans, one unit per item, not a d_z the run never computes.
    const pairwise = join(dir, 'bias-pairwise.json');
    writeFileSync(
      pairwise,
      JSON.stringify({ ...JSON.parse(readFileSync(bias, 'utf8')), name: 'bias-pw', mode: 'pairwise' }),
    );
    const pw = (await estimate(pairwise, data)).power!;
    expect(pw.comparisons.map((c) => `${c.id} ${c.model} ${c.n} ${c.unit}`)).toEqual([
      'position_lean mcnemar-exact 30 items',
      'paired_difference:longer paired-t 30 items',
      'paired_difference:longer:wilcoxon wilcoxon-are 30 items',
      'paired_difference:shorter paired-t 30 items',
      'paired_difference:shorter:wilcoxon wilcoxon-are 30 items',
      'paired_difference:markdown paired-t 30 items',
      'paired_difference:markdown:wilcoxon wilcoxon-are 30 items',
      'human_agreement fisher-z 30 items',
    ]);
    expect(pw.comparisons[0].assumptions).toEqual([
      { key: 'psi', name: 'discordant share ψ', value: 0.1, source: 'default' },
    ]);
    expect(pw.comparisons[0].mde).toBeCloseTo(mcnemarExactMde(30, 0.1)!, 12);
    expect(pw.comparisons[0].itemsNeeded).toBe(mcnemarExactSampleSize(0.1, 0.05)!);

    const refsens = join(dir, 'refsens.json');
    writeFileSync(
      refsens,
      JSON.stringify({
        name: 'refsens-plan',
        protocol: 'reference-sensitivity',
        dataset: join(ROOT, 'resources', 'samples', 'tydiqa-en-ar-te.jsonl'),
        limit: 25,
        providers: sim,
        generators: [
          { label: 'g1', provider: 'sim', model: 'sim-gen-a' },
          { label: 'g2', provider: 'sim', model: 'sim-gen-b' },
        ],
        judges: [{ label: 'J', provider: 'sim', model: 'sim-judge' }],
      }),
    );
    const r = (await estimate(refsens, data)).power!;
    expect(r.comparisons.map((c) => `${c.id} ${c.model} ${c.n} ${c.unitsPerItem}`)).toEqual([
      'calibration_gap mcnemar-exact 25 1',
      'flips:NR-RV mcnemar-exact 50 2',
      'human_agreement fisher-z 25 1',
    ]);
    expect(r.comparisons[1].mde).toBeCloseTo(mcnemarExactMde(50, 0.3)!, 12);
  }, 600_000);
});
