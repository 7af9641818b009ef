// The config keys: what the wizard's draft sends is what the core takes, and the core refuses bad
// values naming the key (nothing written).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../../src/main/providers/key-store';
import { Core } from '../../../src/main/facade/core';
import { initialDraft } from '../../../src/renderer/src/lib/experiment-config';
import {
  initialScDraft,
  parseTemperatures,
  scConfig,
  validateSc,
  withScDraft,
} from '../../../src/renderer/src/protocols/self-consistency/draft';
import { tempDir } from '../../helpers/tmp';

let core: Core;
let cleanup: () => void;
const base = {
  name: 'sc-config',
  protocol: 'self-consistency',
  dataset: 'LLMBar (sample)',
  limit: 4,
  providers: { sim: { kind: 'simulated' } },
  judges: [{ label: 'J', provider: 'sim', model: 'sim-judge' }],
};

beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
}, 120_000);
afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

const errorOf = async (config: object) =>
  core.call('experiments.estimate', { config }).then(
    () => '',
    (e: Error) => e.message,
  );

describe('self-consistency config', () => {
  it('takes what the wizard sends, and plans K asks per question and condition', async () => {
    const draft = withScDraft(initialDraft(), { ...initialScDraft(), repeats: 3, temperatures: '0, 0.7' });
    expect(validateSc(draft)).toEqual([]);
    const own = scConfig(draft);
    expect(own).toEqual({ repeats: 3, orders: 'both', scale: 5, temperatures: [0, 0.7] });
    const e = await core.call('experiments.estimate', { config: { ...base, ...own } });
    expect(e.calls).toBe(4 * 2 * 3 * 2);
  });

  it('defaults to 5 repeats, both orders, each judge at its own temperature', async () => {
    expect((await core.call('experiments.estimate', { config: base })).calls).toBe(4 * 2 * 5);
    expect((await core.call('experiments.estimate', { config: { ...base, orders: 'one' } })).calls).toBe(
      4 * 5,
    );
  });

  it('refuses bad values naming the key', async () => {
    expect(await errorOf({ ...base, repeats: 1 })).toContain('repeats');
    expect(await errorOf({ ...base, repeats: 21 })).toContain('repeats');
    expect(await errorOf({ ...base, repeats: 2.5 })).toContain('repeats');
    expect(await errorOf({ ...base, temperatures: [0, 0] })).toContain('temperatures');
    expect(await errorOf({ ...base, temperatures: [3] })).toContain('temperatures');
    expect(await errorOf({ ...base, orders: 'two' })).toContain('orders');
    expect(await errorOf({ ...base, scale: 7 })).toContain('scale');
    expect(await errorOf({ ...base, repeat: 5 })).toContain('repeat');
    const draft = withScDraft(initialDraft(), { ...initialScDraft(), repeats: 30, temperatures: '0, hot' });
    expect(validateSc(draft).map((i) => i.code)).toEqual(['repeatsRange', 'temperaturesInvalid']);
    expect(parseTemperatures('0，0.7 1')).toEqual([0, 0.7, 1]);
  });
});
