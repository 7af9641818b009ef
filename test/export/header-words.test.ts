// Every exported table header of each protocol, read as a person reads it (issue 32 item 11):
// no word said twice ("Flip Flip 95% CI", "Holm p (Holm)", "Swap consistency Consistency 95%
// CI"). Each protocol runs on the simulated provider in-process with every optional table on
// (noise floors, tie probes, both modes of bias probes), and the headers checked are the CSV's and
// the XLSX's (an interval's "… low" / "… high" columns), the ones a script reads.
import { describe, expect, it } from 'vitest';
import { buildWorkbook } from '../../src/main/report/xlsx';
import { uniqueHeaders, type Table } from '../../src/shared/report/table';
import { useSampleCore } from '../helpers/sample-core';

const sample = useSampleCore('llmbar');

const SIM = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60_000, concurrency: 16 } };

const CONFIGS: Record<string, Record<string, unknown>> = {
  'judge-ls': {
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 6,
    providers: SIM,
    transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH', 'LS'] },
    judges: [{ label: 'Sim strong', provider: 'sim', model: 'sim-judge-strong' }],
    tieProbes: true,
    noiseFloor: true,
  },
  'reference-sensitivity': {
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    limit: 6,
    providers: SIM,
    generators: [{ label: 'Sim generator', provider: 'sim', model: 'sim-generator' }],
    judges: [{ label: 'Sim strong', provider: 'sim', model: 'sim-judge-strong' }],
    noiseFloor: true,
  },
  'bias-probes pointwise': {
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 6,
    providers: SIM,
    rewriter: { provider: 'sim', model: 'sim-rewriter' },
    judges: [{ label: 'Simulated judge', provider: 'sim', model: 'sim-judge' }],
    mode: 'pointwise',
    noiseFloor: true,
  },
  'bias-probes pairwise': {
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 6,
    providers: SIM,
    rewriter: { provider: 'sim', model: 'sim-rewriter' },
    judges: [{ label: 'Simulated judge', provider: 'sim', model: 'sim-judge' }],
    mode: 'pairwise',
    noiseFloor: true,
  },
  'self-consistency': {
    protocol: 'self-consistency',
    dataset: 'LLMBar (sample)',
    limit: 6,
    providers: SIM,
    judges: [{ label: 'Sim weak', provider: 'sim', model: 'sim-judge-weak-flip20' }],
    repeats: 3,
    orders: 'both',
  },
};

/** The words of a header said more than once (case aside; "95%" counts as the word "95"). */
export function doubledWords(header: string): string[] {
  const words: string[] = header.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w, i) => words.indexOf(w) !== i))];
}

async function exportedTables(config: Record<string, unknown>, name: string): Promise<Table[]> {
  const core = sample.core;
  if (config.dataset !== 'LLMBar (sample)') await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  const { id } = await core.call('experiments.create', { config: { ...config, name } });
  expect((await core.experiments.runToEnd(id)).status).toBe('finished');
  return (await core.call('experiments.results', { experimentId: id })).tables;
}

describe('exported table headers say each word once', () => {
  it('finds a doubled word where there is one', () => {
    expect(doubledWords('Flip Flip 95% CI')).toEqual(['flip']);
    expect(doubledWords('Holm p (Holm)')).toEqual(['holm']);
    expect(doubledWords('Swap consistency Consistency 95% CI')).toEqual(['consistency']);
    expect(doubledWords('Acc. strict 95% CI (Wilson)')).toEqual([]);
  });

  for (const [name, config] of Object.entries(CONFIGS))
    it(`${name}: CSV and XLSX headers`, async () => {
      const tables = await exportedTables(config, `headers-${name.replace(/ /g, '-')}`);
      expect(tables.length).toBeGreaterThan(2);
      const doubled: string[] = [];
      for (const table of tables)
        for (const header of uniqueHeaders(table))
          if (doubledWords(header).length) doubled.push(`${table.id}: ${header}`);
      const workbook = buildWorkbook(tables);
      workbook.eachSheet((sheet) =>
        sheet.getRow(1).eachCell((cell) => {
          const header = String(cell.value);
          if (doubledWords(header).length) doubled.push(`${sheet.name} (xlsx): ${header}`);
        }),
      );
      expect(doubled).toEqual([]);
      // Every table a noise floor adds is among those read (the run had it on).
      if ('noiseFloor' in config) expect(tables.map((t) => t.id)).toContain('noise_floor');
    }, 180_000);
});
