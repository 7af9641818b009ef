// `judge-lab run`'s launcher starts the counting worker and waits for its tables before the CLI
// loads (bin/judge-lab.mjs, issue 39): the wait ends when the worker says they are built, and the
// worker then counts as the package does.
import { countTokens } from 'gpt-tokenizer';
import { afterAll, describe, expect, it } from 'vitest';
import {
  countInWorker,
  countingTablesBuilt,
  countingTablesReady,
  keepTokenizerBetweenEstimates,
  releaseTokenizerAfterEstimates,
} from '../../src/main/providers/sdk';

// The files after this one share the process: no worker and no one-study switch left behind.
afterAll(() => keepTokenizerBetweenEstimates());

describe('the counting worker started ahead', () => {
  it('is not waited for when none was started', async () => {
    expect(countingTablesReady()).toBe(false);
    await countingTablesBuilt();
    expect(countingTablesReady()).toBe(false);
  });

  it('is waited for until its tables are built, and then counts as the package does', async () => {
    releaseTokenizerAfterEstimates();
    await countingTablesBuilt();
    expect(countingTablesReady()).toBe(true);
    const texts = [' hello', ' 世界', '<|endoftext|>', 'x'.repeat(300)];
    const counts = countInWorker(texts);
    expect(counts && [...counts]).toEqual(texts.map((t) => countTokens(t, { disallowedSpecial: new Set() })));
  });
});
