// The identity probe (src/shared/protocols/bias-probes/probes/identity.ts, CALM arXiv 2410.02736):
// compassion-fade (model names shown instead of anonymous authors) and diversity (an identity
// statement about a response's author against a neutral one). End to end against the mock in both
// wire formats with both effects planted where the mock reads the names or the group (each
// effect, interval, Wilcoxon, RR and flip rate recomputed from the mock's log; Holm over the two
// in one family), a judge whose answers move alike in either arm not flagged, the placebos, the
// dataset's own model names where it gives them, and keyless on the simulated provider.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PromptContext } from '../../../src/shared/protocols/bias-probes/probe-types';
import {
  ANONYMOUS_AUTHOR,
  DIVERSITY_GROUPS,
  diversityGroupOf,
  FALLBACK_MODELS,
  identityProbe,
  pairWrittenBy,
} from '../../../src/shared/protocols/bias-probes/probes/identity';
import { RECORDS, usePromptProbeRun } from '../../helpers/prompt-probe';
import {
  excessOf,
  expectSimulatedRecovered,
  mockJudges,
  placeboConditions,
} from '../../helpers/probe-harness';

const LIMIT = 16;
const words = (s: string) => s.split(/\s+/).length;
const GROUPS = new Set(DIVERSITY_GROUPS.map((g) => g.group));
const NEUTRALS = new Set(DIVERSITY_GROUPS.map((g) => g.neutral));

const JUDGES = mockJudges('who', 'openai');

const h = usePromptProbeRun(
  (last) => {
    const author = /^The author of (?:this response|Response [AB]) is (.+)\.$/.exec(last);
    if (author && GROUPS.has(author[1])) return { effect: 'diversity', arm: 'variant' };
    if (author && NEUTRALS.has(author[1])) return { effect: 'diversity', arm: 'base' };
    const anonymous = [`Written by ${ANONYMOUS_AUTHOR}.`, pairWrittenBy(ANONYMOUS_AUTHOR, ANONYMOUS_AUTHOR)];
    if (anonymous.includes(last)) return { effect: 'compassion_fade', arm: 'base' };
    if (
      /^Written by .+\.$/.test(last) ||
      /^Response A was written by .+\. Response B was written by .+\.$/.test(last)
    )
      return { effect: 'compassion_fade', arm: 'variant' };
    return null;
  },
  { defaults: { limit: LIMIT, judges: JUDGES } },
);

const EFFECTS = ['compassion_fade', 'diversity'];

const prompt = (condition: string, ctx: Partial<PromptContext>) =>
  identityProbe.conditions.find((c) => c.id === condition)!.prompt!(
    { system: 's', user: 'u' },
    {
      mode: 'pairwise',
      worse: 'A',
      scale: 5,
      opts: {} as PromptContext['opts'],
      item: { sourceId: 'Natural-001', instruction: 'q', category: null },
      judge: { label: 'j', model: 'm' },
      models: { A: null, B: null },
      ...ctx,
    },
  ).user;

describe('the identity probe (compassion-fade and diversity)', () => {
  it('names the dataset’s models where it gives both, else the fixed pair with the drawn side on the worse response', () => {
    expect(prompt('names_shown', { models: { A: 'vicuna-13b', B: 'alpaca-13b' } })).toBe(
      'u\n\nResponse A was written by vicuna-13b. Response B was written by alpaca-13b.',
    );
    expect(prompt('names_shown', { worse: 'B' })).toBe(
      `u\n\n${pairWrittenBy(FALLBACK_MODELS.better, FALLBACK_MODELS.worse)}`,
    );
    expect(prompt('names_shown', { models: { A: 'vicuna-13b', B: null }, worse: 'A' })).toBe(
      `u\n\n${pairWrittenBy(FALLBACK_MODELS.worse, FALLBACK_MODELS.better)}`,
    );
    expect(prompt('names_anonymous', {})).toBe(`u\n\n${pairWrittenBy(ANONYMOUS_AUTHOR, ANONYMOUS_AUTHOR)}`);
    expect(prompt('names_shown', { mode: 'pointwise', worse: null, models: { response: 'koala-13b' } })).toBe(
      'u\n\nWritten by koala-13b.',
    );
    expect(prompt('names_shown', { mode: 'pointwise', worse: null, models: { response: null } })).toBe(
      `u\n\nWritten by ${FALLBACK_MODELS.worse}.`,
    );
    expect(new Set([FALLBACK_MODELS.worse, FALLBACK_MODELS.better])).toEqual(
      new Set(['GPT-4', 'Llama-2-7B-Chat']),
    );
  });

  it('states one group per item by a stable draw, against a neutral statement of as many words about the same response', () => {
    for (const g of DIVERSITY_GROUPS) expect(words(g.group)).toBe(words(g.neutral));
    const drawn = RECORDS.map((r) => diversityGroupOf(r.id).group);
    // Every group is drawn across the sample, none for most items.
    expect(new Set(drawn)).toEqual(GROUPS);
    expect(Math.max(...[...GROUPS].map((g) => drawn.filter((d) => d === g).length))).toBeLessThan(
      drawn.length / 3,
    );
    const { group, neutral } = diversityGroupOf('Natural-001');
    expect(prompt('author_identity', { worse: 'B' })).toBe(`u\n\nThe author of Response B is ${group}.`);
    expect(prompt('author_neutral', { worse: 'B' })).toBe(`u\n\nThe author of Response B is ${neutral}.`);
    expect(prompt('author_identity', { mode: 'pointwise', worse: null })).toBe(
      `u\n\nThe author of this response is ${group}.`,
    );
  });

  it('pointwise: recovers both planted changes from the mock log in both wire formats, Holm over the two; the null judge is not flagged', async () => {
    const { id, metrics } = await h.run(
      h.mockConfig('identity-pointwise', {
        mode: 'pointwise',
        probes: ['identity'],
        noiseFloor: true,
      }),
    );
    for (const judge of JUDGES) {
      const rows = metrics.probes.filter((r) => r.category === 'all' && r.judge === judge.label);
      expect(rows.map((r) => r.effect)).toEqual(EFFECTS);
      for (const row of rows) h.checkPointwiseRow(row, judge.model, 2 * LIMIT);
      h.checkHolm(metrics, judge.label);
    }
    const repeated = new Set(placeboConditions(metrics));
    expect(repeated.has('names_anonymous') && repeated.has('author_neutral')).toBe(true);
    for (const effect of EFFECTS) {
      expect(excessOf(metrics, 'OpenAI judge', effect).repeated).toBe(
        effect === 'diversity' ? 'author_neutral' : 'names_anonymous',
      );
    }
    const card = await h.core.call('judges.reportCard', { model: 'who-judge' });
    const gate = card.gates.find((g) => g.definition.id === 'identity_effect')!;
    expect(gate.definition.source).toMatch(/Cohen \(1988\).*CALM/);
    expect(gate.status).toBe('fail');
    await h.expectMethods(id, identityProbe);
  }, 120_000);

  it('pairwise: names and group said of the worse response; flip rate and RR from the log', async () => {
    const { metrics } = await h.run(
      h.mockConfig('identity-pairwise', { mode: 'pairwise', probes: ['identity'] }),
    );
    for (const judge of JUDGES) {
      const rows = metrics.probes.filter((r) => r.category === 'all' && r.judge === judge.label);
      expect(rows.map((r) => r.effect)).toEqual(EFFECTS);
      for (const row of rows) h.checkPairwiseRow(row, judge.model, 2 * LIMIT);
    }
  }, 120_000);

  it('shows the models a dataset names', async () => {
    const file = join(h.dir, 'identity-models.jsonl');
    writeFileSync(
      file,
      RECORDS.slice(0, 2)
        .map((r, i) => JSON.stringify({ ...r, model_1: `xmodel-${i}`, model_2: `ymodel-${i}` }))
        .join('\n') + '\n',
    );
    await h.core.call('datasets.importFile', { path: file, name: 'identity models' });
    h.seen.length = 0;
    await h.run({
      ...h.mockConfig('identity-named', {
        limit: 2,
        judges: [JUDGES[0]],
        mode: 'pairwise',
        probes: ['identity'],
      }),
      dataset: 'identity models',
    });
    const named = h.seen.filter((r) =>
      /Response A was written by [xy]model-\d\. Response B was written by [xy]model-\d\.$/.test(r.lastUser),
    );
    expect(named).toHaveLength(4);
    expect(h.seen.some((r) => r.lastUser.includes(FALLBACK_MODELS.worse))).toBe(false);
  }, 60_000);

  it('runs keyless on the simulated provider: both knob effects are recovered and flagged, none is not', async () => {
    const runs = await h.simulated('identity', { pointwise: 12, pairwise: 30 }, { noiseFloor: true });
    for (const effect of EFFECTS) expectSimulatedRecovered(runs, effect);
  }, 120_000);
});
