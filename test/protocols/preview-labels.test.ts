// The wizard's prompt-preview cards are titled in the page's language: each card the core renders
// names its title by a key of its protocol's messages (issue 27: the zh wizard showed the
// English "Tie probe (EN vs ZH; …)" title whenever the preview loaded before the check looked).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { RenderedPromptView } from '../../src/shared/experiments';
import { en as judgeLsEn } from '../../src/renderer/src/protocols/judge-ls/i18n/en';
import { zh as judgeLsZh } from '../../src/renderer/src/protocols/judge-ls/i18n/zh';
import { refSensResources } from '../../src/renderer/src/protocols/reference-sensitivity/i18n';
import { tempDir } from '../helpers/tmp';

const tmp = tempDir();
let core: Core;
const ids: Record<string, number> = {};
const sim = { sim: { kind: 'simulated', latencyMs: 1, rpm: 60_000, concurrency: 8 } };

beforeAll(async () => {
  core = new Core({ dataDir: tmp.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  for (const sampleId of ['llmbar', 'tydiqa'])
    ids[sampleId] = (await core.call('datasets.loadSample', { sampleId })).dataset.id;
});
afterAll(async () => {
  await core.shutdown();
  tmp.cleanup();
});

/** The title a page shows: the message under `labelKey` with its values filled in. */
function shown(labels: Record<string, string>, v: RenderedPromptView): string | undefined {
  const text = v.labelKey === undefined ? undefined : labels[v.labelKey];
  return text?.replace(/\{\{(\w+)\}\}/g, (_, k: string) => v.labelParams?.[k] ?? `{{${k}}}`);
}

/** The zh walks' test for an English sentence: four ASCII words in a row. */
const english = /(?:[A-Za-z][A-Za-z'’-]*[\s,.:;]+){3,}[A-Za-z]/;

function expectTranslated(
  views: RenderedPromptView[],
  en: Record<string, string>,
  zh: Record<string, string>,
) {
  expect(views.length).toBeGreaterThan(0);
  for (const v of views) {
    expect(shown(en, v), v.label).toBe(v.label);
    const z = shown(zh, v);
    expect(z, v.label).toBeDefined();
    expect(z, v.label).not.toMatch(english);
  }
}

describe('prompt preview titles', () => {
  it('Judge-LS: transform, judge and tie-probe cards have their zh titles', async () => {
    const preview = await core.call('experiments.previewPrompts', {
      config: {
        name: 'p',
        protocol: 'judge-ls',
        dataset: ids.llmbar,
        providers: sim,
        transform: { provider: 'sim', model: 'sim-translator' },
        judges: [{ label: 'J', provider: 'sim', model: 'sim-judge' }],
        tieProbes: true,
      },
    });
    expect(preview.prompts.filter((v) => v.stage === 'judge').map((v) => v.labelKey)).toContain('tieProbe');
    expectTranslated(
      preview.prompts,
      judgeLsEn.wizard.transform.previewLabels,
      judgeLsZh.wizard.transform.previewLabels,
    );
  });

  it('reference sensitivity: generator, calibration and judge cards have their zh titles', async () => {
    const preview = await core.call('experiments.previewPrompts', {
      config: {
        name: 'r',
        protocol: 'reference-sensitivity',
        dataset: ids.tydiqa,
        providers: sim,
        generators: [{ label: 'Gen', provider: 'sim', model: 'sim-gen' }],
        judges: [{ label: 'J', provider: 'sim', model: 'sim-judge' }],
      },
    });
    expect(preview.prompts.map((v) => v.labelKey)).toEqual(
      expect.arrayContaining(['generator', 'c1', 'c2', 'judge']),
    );
    expectTranslated(
      preview.prompts,
      refSensResources.en.wizard.prompts.previewLabels,
      refSensResources.zh.wizard.prompts.previewLabels,
    );
  });
});
