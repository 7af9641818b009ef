// Reference sensitivity's wizard offers everything its config does (issue 26 item 2): the wizard
// step is walked against the config's own schema, key by key; a key without a control must be
// listed as CLI-only in the README. Several generators (the README's benchmark uses four) go into
// the config and the summary.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refSensConfigShape } from '../../src/main/protocols/reference-sensitivity/config';
import { setApi } from '../../src/renderer/src/api';
import '../../src/renderer/src/i18n';
import { buildConfig, initialDraft } from '../../src/renderer/src/lib/experiment-config';
import '../../src/renderer/src/protocols/index';
import { GeneratorsStep } from '../../src/renderer/src/protocols/reference-sensitivity/GeneratorsStep';
import { SummaryLines } from '../../src/renderer/src/protocols/reference-sensitivity/SummaryLines';
import { useWizard } from '../../src/renderer/src/stores/wizard';
import { FakeApi } from '../../src/renderer/src/test/fake-api';

/** Keys the shared wizard steps set for every protocol (the judges step). */
const SHARED_STEPS = ['judges'];

/** The keys the README's reference-sensitivity section names as CLI-only. */
function cliOnlyKeys(): string[] {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Reference sensitivity'));
  const line = /Not in the wizard \(config file and CLI only\):([^\n]*)/.exec(section)?.[1] ?? '';
  return [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
}

/** Every key of the config, nested objects' keys as `parent.child`. */
function configKeys(): string[] {
  return Object.entries(refSensConfigShape).flatMap(([key, schema]) => {
    const inner = (schema as { unwrap?: () => { shape?: Record<string, unknown> } }).unwrap?.();
    return key === 'parts' && inner?.shape ? Object.keys(inner.shape).map((k) => `parts.${k}`) : [key];
  });
}

beforeEach(() => {
  setApi(new FakeApi({ 'protocols.defaults': () => ({ templates: {} }) }));
  act(() =>
    useWizard.setState({
      draft: { ...initialDraft(), protocol: 'reference-sensitivity', datasetId: 1, name: 'x' },
      step: 'generators',
    }),
  );
});
afterEach(() => {
  cleanup();
  setApi(null);
});

describe("reference sensitivity's wizard against its config", () => {
  it('has a control for every config key, or the README lists the key as CLI-only', () => {
    render(<GeneratorsStep />);
    const controlled = new Set(
      [...document.querySelectorAll('[data-config-key]')].map((e) => e.getAttribute('data-config-key')),
    );
    const cliOnly = cliOnlyKeys();
    const keys = configKeys();
    expect(keys).toEqual(expect.arrayContaining(['generators', 'parts.settings', 'noiseFloor', 'seed']));
    const missing = keys.filter(
      (k) => !controlled.has(k) && !SHARED_STEPS.includes(k) && !cliOnly.includes(k),
    );
    expect(missing).toEqual([]);
    // The CLI-only list names only keys the config has and the wizard lacks.
    expect(cliOnly.filter((k) => !keys.includes(k) || controlled.has(k))).toEqual([]);
  });

  it('takes four generators, each with its label, into the config and the summary', () => {
    render(<GeneratorsStep />);
    const models = ['gpt-4.1-nano', 'gpt-4.1-mini', 'qwen2.5-7b', 'llama-3.1-8b'];
    for (let i = 1; i < models.length; i++) fireEvent.click(screen.getByTestId('add-generator'));
    const rows = screen.getAllByTestId('generator-row');
    expect(rows).toHaveLength(4);
    rows.forEach((row, i) =>
      fireEvent.change(within(row).getByTestId('generator-model'), { target: { value: models[i] } }),
    );
    fireEvent.change(within(rows[2]).getByTestId('generator-label'), { target: { value: 'Qwen 7B' } });
    fireEvent.click(screen.getByTestId('option-noise-floor'));
    fireEvent.click(screen.getByTestId('setting-RV'));
    const config = buildConfig(useWizard.getState().draft) as Record<string, unknown>;
    expect(config.generators).toEqual([
      { label: 'gpt-4.1-nano', provider: 'openai', model: 'gpt-4.1-nano' },
      { label: 'gpt-4.1-mini', provider: 'openai', model: 'gpt-4.1-mini' },
      { label: 'Qwen 7B', provider: 'openai', model: 'qwen2.5-7b' },
      { label: 'llama-3.1-8b', provider: 'openai', model: 'llama-3.1-8b' },
    ]);
    expect(config.parts).toEqual({ calibration: true, sensitivity: true, settings: ['NR', 'RC'] });
    expect(config.noiseFloor).toBe(true);

    cleanup();
    render(
      <dl>
        <SummaryLines />
      </dl>,
    );
    expect(screen.getByTestId('summary-refsens-generators').textContent).toBe(
      'gpt-4.1-nano (OpenAI, gpt-4.1-nano) · gpt-4.1-mini (OpenAI, gpt-4.1-mini) · Qwen 7B (OpenAI, qwen2.5-7b) · llama-3.1-8b (OpenAI, llama-3.1-8b)',
    );
    expect(screen.getByTestId('summary-refsens-settings').textContent).toBe('NR, RC');
    expect(screen.getByTestId('summary-refsens-parts').textContent).toMatch(/Calibration.*Sensitivity/);
  });

  it('refuses two generators with one label, and a removed generator leaves the config', () => {
    render(<GeneratorsStep />);
    fireEvent.click(screen.getByTestId('add-generator'));
    const rows = screen.getAllByTestId('generator-row');
    fireEvent.change(within(rows[1]).getByTestId('generator-model'), { target: { value: 'gpt-4.1-nano' } });
    const issues = useWizard.getState().draft;
    expect((buildConfig(issues) as { generators: unknown[] }).generators).toHaveLength(2);
    act(() => useWizard.getState().next());
    expect(screen.getByTestId('generator-rows').textContent).toContain('Another generator has this label.');
    fireEvent.click(within(rows[1]).getByTestId('remove-generator'));
    expect((buildConfig(useWizard.getState().draft) as { generators: unknown[] }).generators).toHaveLength(1);
  });
});
