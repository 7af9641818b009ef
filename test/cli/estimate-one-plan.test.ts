// Issue 32 item 8: one planner, one answer. The wizard asks `experiments.estimate` through a page
// door with the dataset by id; `judge-lab estimate` asks it from a config file with the dataset
// by path. The same config must get the same power plan both ways — items, effects and where
// each figure came from — before any run and with a pilot present; and self-consistency has a
// plan of its own (disagreement vs p0, position by k), whose pilot-derived effects say "pilot".
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import type { CostEstimate } from '../../src/shared/experiments';
import type { PowerPlan } from '../../src/shared/paper/types';
import type { SelfConsistencyMetrics } from '../../src/shared/protocols/self-consistency/types';
import { exactBinomialSampleSize } from '../../src/shared/stats/power';
import { assertBuilt, ROOT, runCliInProcess } from '../helpers/cli';
import { keylessEnv, runKeylessInProcess } from '../helpers/cli-simulated';
import { tempDir } from '../helpers/tmp';

const SAMPLE = join(ROOT, 'resources', 'samples', 'llmbar-demo.jsonl');
const ITEMS = 8;
const REPEATS = 3;

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

function config(name: string): Record<string, unknown> {
  return {
    name,
    protocol: 'self-consistency',
    dataset: SAMPLE,
    limit: ITEMS,
    repeats: REPEATS,
    providers: { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 8 } },
    judges: [
      { label: 'Steady', provider: 'sim', model: 'sim-judge-strong' },
      // Flips 20 % of its asks: the pilot sees repeats disagree.
      { label: 'Shaky', provider: 'sim', model: 'sim-judge-weak-flip20' },
    ],
    prices: {
      'sim-judge-strong': { input: 0, output: 0 },
      'sim-judge-weak-flip20': { input: 0, output: 0 },
    },
  };
}

function writeConfig(name: string): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(config(name)));
  return file;
}

async function cliEstimate(file: string, data: string): Promise<{ plan: PowerPlan; text: string }> {
  const json = await runCliInProcess(['estimate', file, '--data-dir', data, '--json'], keylessEnv());
  expect(json.code, json.stderr).toBe(0);
  const text = await runCliInProcess(['estimate', file, '--data-dir', data], keylessEnv());
  expect(text.code, text.stderr).toBe(0);
  return { plan: (JSON.parse(json.stdout) as CostEstimate).power!, text: text.stdout };
}

/** The wizard's way: a page door, the dataset by its id (as `buildConfig` sends it). */
async function wizardEstimate(name: string, data: string): Promise<PowerPlan> {
  const core = new Core({ dataDir: data, door: 'web', keys: new EnvOnlyKeyStore({}) });
  try {
    const dataset = (await core.call('datasets.list', undefined)).find((d) =>
      d.sourceFile.endsWith('llmbar-demo.jsonl'),
    )!;
    const estimate = await core.call('experiments.estimate', {
      config: { ...config(name), dataset: dataset.id },
    });
    return estimate.power!;
  } finally {
    core.close();
  }
}

describe('one power plan for one config, whichever door asks (issue 32 item 8)', () => {
  it('gives the wizard’s API and the CLI the same plan, with and without a pilot, each figure saying its source', async () => {
    const data = join(dir, 'data');
    const file = writeConfig('sc-plan');

    const before = await cliEstimate(file, data);
    expect(await wizardEstimate('sc-plan', data)).toEqual(before.plan);
    expect(before.plan.pilot).toBeNull();
    expect(before.plan.comparisons.map((c) => `${c.id} ${c.model} ${c.n} ${c.effectSource}`)).toEqual([
      // Pairs in both orders: two questions per item.
      `disagreement:own binomial-exact ${ITEMS * 2} default`,
      `position_inconsistency:own:k=1 binomial-exact ${ITEMS} default`,
      `position_inconsistency:own:k=3 binomial-exact ${ITEMS} default`,
    ]);
    expect(before.text).toMatch(/no earlier run of these judges: default rates/);
    expect(before.text).toContain('for an effect of 0.050 (default)');

    // A pilot: the same judges under another name.
    await runKeylessInProcess(writeConfig('sc-pilot'), 'sc-pilot', join(dir, 'pilot-out'), data);
    const metrics = JSON.parse(
      readFileSync(join(dir, 'pilot-out', 'metrics.json'), 'utf8'),
    ) as SelfConsistencyMetrics;
    const all = metrics.stability.filter((r) => r.condition === 'own' && r.category === 'all');
    const disagree =
      all.reduce((s, r) => s + r.questions - r.unanimous, 0) / all.reduce((s, r) => s + r.questions, 0);
    // The flipping judge makes the pilot's rate rise over p0 = 0.05, so the plan takes it.
    expect(disagree).toBeGreaterThan(0.05);

    const after = await cliEstimate(file, data);
    expect(await wizardEstimate('sc-plan', data)).toEqual(after.plan);
    expect(after.plan.pilot).toMatchObject({ name: 'sc-pilot', simulated: true });
    const row = after.plan.comparisons.find((c) => c.id === 'disagreement:own')!;
    expect(row.effect).toBeCloseTo(disagree - 0.05, 12);
    expect(row.effectSource).toBe('pilot');
    expect(row.effectTyped).toBe(false);
    expect(row.assumptions).toEqual([
      { key: 'p0', name: 'reference disagreement rate p0', value: 0.05, source: 'default' },
    ]);
    expect(row.itemsNeeded).toBe(Math.ceil(exactBinomialSampleSize(0.05, disagree)! / 2));
    // The text names the pilot run behind the effect, never "(default)" for it.
    const line = after.text.slice(after.text.indexOf('[disagreement:own]'));
    expect(line.split('\n')[2]).toMatch(/for an effect of [0-9.]+ \(pilot run "sc-pilot"\): \d+ items/);

    // A typed effect is the user's, through either door.
    const typed = await runCliInProcess(
      ['estimate', file, '--data-dir', data, '--json', '--effect', 'disagreement:own=0.2'],
      keylessEnv(),
    );
    const plan = (JSON.parse(typed.stdout) as CostEstimate).power!;
    expect(plan.comparisons.find((c) => c.id === 'disagreement:own')).toMatchObject({
      effect: 0.2,
      effectSource: 'user',
      effectTyped: true,
    });
  }, 600_000);

  it('makes self-consistency’s preregistration take the power plan’s ids, as the other studies’ do', async () => {
    const data = join(dir, 'data-prereg');
    const withPlan = (name: string, confirmatory: string[]) => {
      const file = join(dir, `${name}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          ...config(name),
          preregistration: { confirmatory, exclusions: 'none', stopping: 'all planned items' },
        }),
      );
      return file;
    };
    const free = await runCliInProcess(
      ['estimate', withPlan('sc-free', ['stable-enough']), '--data-dir', data],
      keylessEnv(),
    );
    // An estimate leaves the plan alone; creating the experiment locks it.
    expect(free.code, free.stderr).toBe(0);
    const refused = await runCliInProcess(
      ['run', withPlan('sc-free', ['stable-enough']), '--data-dir', data, '--out', join(dir, 'free-out')],
      keylessEnv(),
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(
      /"stable-enough" is not a comparison of this experiment's power plan \(have: disagreement:own, position_inconsistency:own:k=1, position_inconsistency:own:k=3\)/,
    );
    await runKeylessInProcess(
      withPlan('sc-locked', ['disagreement:own', 'position_inconsistency:own:k=3']),
      'sc-locked',
      join(dir, 'locked-out'),
      data,
    );
    const view = await runCliInProcess(
      ['preregistration', 'sc-locked', '--data-dir', data, '--json'],
      keylessEnv(),
    );
    expect(view.code, view.stderr).toBe(0);
    const lock = JSON.parse(view.stdout) as {
      locks: { snapshot: { comparisons: { id: string; n: number }[] } }[];
    };
    // The rows those tests read are marked confirmatory in the export, the rest exploratory.
    const csv = (name: string) =>
      readFileSync(join(dir, 'locked-out', 'tables', `${name}.csv`), 'utf8')
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
    const stability = csv('stability');
    expect(stability[0]).toMatch(/,Analysis$/);
    expect(stability.slice(1).every((l) => l.endsWith(',confirmatory'))).toBe(true);
    const position = csv('position_by_k');
    const k = position[0].split(',').indexOf('k');
    expect(
      position
        .slice(1)
        .map((l) => `${l.split(',')[k]} ${l.split(',').at(-1)}`)
        .sort(),
    ).toEqual(['1 exploratory', '1 exploratory', '3 confirmatory', '3 confirmatory']);
    expect(lock.locks[0].snapshot.comparisons.map((c) => `${c.id} ${c.n}`)).toEqual([
      `disagreement:own ${ITEMS * 2}`,
      `position_inconsistency:own:k=3 ${ITEMS}`,
    ]);
  }, 600_000);
});
