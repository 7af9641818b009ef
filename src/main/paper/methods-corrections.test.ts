// The Methods corrections sentence reads the tables' declared families (`Table.families`), not
// their captions' words: a caption may name Holm without any p adjusted, and a family's table
// says whether one was.
import { describe, expect, it } from 'vitest';
import { col, type Table } from '../../shared/report/table';
import type { MethodsFacts } from './methods-facts';
import { methodsDocument } from './methods-text';

const facts: MethodsFacts = {
  experiment: { id: 1, name: 'e', protocol: 'p', title: 'P' },
  simulated: false,
  recorded: false,
  dataset: {
    name: 'd',
    sourceFile: 'd.jsonl',
    format: 'jsonl',
    sha256: '0',
    total: 2,
    used: 2,
    license: null,
  },
  sampling: { limit: null, sample: 'first', seed: null, subsets: null },
  models: [],
  prompts: [],
  tasks: { planned: 0, ok: 0, failed: 0, pending: 0 },
  calls: 0,
  cacheHits: 0,
  paidCalls: 0,
  failures: [],
  reasked: { answers: 0, extraAsks: 0 },
  maxParseRetries: 0,
  flagged: 0,
  costUsd: 0,
};

const table = (caption: string, families: Table['families']): Table => ({
  id: 't',
  title: 'T',
  caption,
  columns: [col('judge', 'Judge', 'text'), col('p', 'p', 'p'), col('p_holm', 'Adjusted p', 'p')],
  rows: [{ judge: 'a', p: 0.02, p_holm: 0.02 }],
  families,
});

/** The corrections section's sentence. */
function corrections(t: Table, lang: 'en' | 'zh'): string {
  const view = { experimentId: 1, locks: [], active: null, deviations: [], afterData: null };
  const doc = methodsDocument(facts, [], [t], lang, false, view as never);
  const block = doc.sections.find((s) => s.id === 'corrections')!.blocks[0];
  if (block.kind !== 'p') throw new Error('the corrections section is one paragraph');
  return block.text;
}

describe('Methods: the multiplicity sentence from the declared families', () => {
  const family = {
    name: 'f',
    method: 'holm' as const,
    p: 'p',
    adjusted: 'p_holm',
    by: [],
    hypothesis: ['judge'],
  };
  it('says Holm for a declared Holm family, whatever the caption says', () => {
    expect(corrections(table('Adjusted across judges.', [family]), 'en')).toMatch(
      /^p values are adjusted with Holm/,
    );
    expect(corrections(table('Adjusted across judges.', [family]), 'zh')).toMatch(/Holm 逐步下降法校正/);
  });
  it('says no correction when no family is declared, though the caption names Holm', () => {
    expect(corrections(table('Holm was not needed here.', undefined), 'en')).toBe(
      'No test of this experiment is adjusted for multiple comparisons.',
    );
  });
});
