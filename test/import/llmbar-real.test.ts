import { llmbarPath } from '../helpers/shared-data';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDataset } from '../../src/main/datasets/service';
import { parseDatasetFile } from '../../src/main/import';
import { allItems } from '../../src/main/store/datasets';
import { REPO_ROOT, storeCounts, tempDatabase } from './helpers';

const SHARED_FILE = llmbarPath();
const SAMPLE_FILE = join(REPO_ROOT, 'resources', 'samples', 'llmbar.jsonl');

const EXPECTED_SUBSETS = [
  { subset: 'Natural', count: 100 },
  { subset: 'Neighbor', count: 134 },
  { subset: 'GPTInst', count: 92 },
  { subset: 'GPTOut', count: 47 },
  { subset: 'Manual', count: 46 },
];

describe('the real LLMBar JSONL file', () => {
  const bytes = readFileSync(SHARED_FILE);
  const parsed = parseDatasetFile('llmbar.jsonl', bytes);

  it('reads all 419 items as llmbar-jsonl with the published subset and label counts', () => {
    expect(parsed.format).toBe('llmbar-jsonl');
    expect(parsed.items).toHaveLength(419);
    const bySubset = new Map<string, number>();
    for (const it of parsed.items) bySubset.set(it.subset!, (bySubset.get(it.subset!) ?? 0) + 1);
    expect([...bySubset].map(([subset, count]) => ({ subset, count }))).toEqual(EXPECTED_SUBSETS);
    expect(parsed.items.filter((it) => it.label === 1)).toHaveLength(206);
    expect(parsed.items.filter((it) => it.label === 2)).toHaveLength(213);
  });

  it('keeps the source ids in file order', () => {
    expect(parsed.items[0].sourceId).toBe('Natural-001');
    expect(parsed.items[100].sourceId).toBe('Neighbor-001');
    expect(parsed.items.at(-1)!.sourceId).toBe('Manual-046');
    expect(new Set(parsed.items.map((it) => it.sourceId)).size).toBe(419);
  });

  it('keeps every text byte for byte, edge whitespace included', () => {
    const lines = bytes
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    lines.forEach((line, i) => {
      const src = JSON.parse(line) as Record<string, string>;
      const it = parsed.items[i];
      expect([it.instruction, it.output1, it.output2]).toEqual([src.instruction, src.output_1, src.output_2]);
    });
    const natural3 = parsed.items.find((it) => it.sourceId === 'Natural-003')!;
    expect(natural3.instruction.endsWith(' ')).toBe(true);
    const padded = parsed.items
      .flatMap((it) => [it.instruction, it.output1 ?? '', it.output2 ?? ''])
      .filter((t) => t !== t.trim());
    expect(padded).toHaveLength(10);
  });
});

describe('importing the shipped LLMBar sample through the core', () => {
  const store = tempDatabase();
  afterAll(() => store.close());
  let bytes: Buffer;
  beforeAll(() => {
    bytes = readFileSync(SAMPLE_FILE);
  });

  it('stores one dataset with its per-subset counts, and the texts intact', () => {
    const result = importDataset(store.db, { fileName: SAMPLE_FILE, bytes });
    expect(result.duplicate).toBe(false);
    expect(result.dataset).toMatchObject({
      name: 'llmbar',
      sourceFile: 'llmbar.jsonl',
      format: 'llmbar-jsonl',
    });
    expect(result.dataset.itemCount).toBe(419);
    expect(result.dataset.subsets).toEqual(EXPECTED_SUBSETS);
    const stored = allItems(store.db, result.dataset.id);
    expect(stored.find((it) => it.sourceId === 'Natural-003')!.instruction.endsWith(' ')).toBe(true);
    expect(stored.map((it) => it.position)).toEqual(Array.from({ length: 419 }, (_, i) => i + 1));
  });

  it('recognizes the same bytes imported again and writes nothing', () => {
    const again = importDataset(store.db, { fileName: 'copy-of-llmbar.jsonl', bytes });
    expect(again.duplicate).toBe(true);
    expect(again.dataset.itemCount).toBe(419);
    expect(storeCounts(store.db)).toEqual({ datasets: 1, items: 419 });
  });
});
