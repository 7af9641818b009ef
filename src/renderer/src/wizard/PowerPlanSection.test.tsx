// @vitest-environment jsdom
// Issue 32 item 8: the wizard's power plan says where every figure came from — the app's default,
// the pilot run by name, or the user — for the rates and for the effect each row plans for (EN
// and 中文), with the protocol's own comparison words (self-consistency's included).
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PowerComparison, PowerPlan } from '../../../shared/paper/types';
import { i18next } from '../i18n';
import '../protocols/index';
import { SC_NAMESPACES } from '../protocols/self-consistency/i18n';
import { PowerPlanSection } from './PowerPlanSection';

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

const row = (id: string, effectSource: PowerComparison['effectSource']): PowerComparison => ({
  id,
  label: `Repeats disagree (1 − unanimous rate) vs p0, own (per judge)`,
  labelKey: 'power.repeatDisagreement',
  labelParams: { condition: 'own' },
  model: 'binomial-exact',
  effectScale: 'rise of the rate over the reference rate p0',
  unit: 'questions',
  unitsPerItem: 2,
  n: 16,
  mde: 0.3,
  assumptions: [{ key: 'p0', name: 'reference disagreement rate p0', value: 0.05, source: 'default' }],
  effect: 0.2,
  effectSource,
  effectTyped: effectSource === 'user',
  itemsNeeded: 40,
});

const plan: PowerPlan = {
  alpha: 0.05,
  power: 0.8,
  pilot: { experimentId: 4, name: 'sc-pilot', simulated: false },
  comparisons: [row('disagreement:own', 'pilot'), row('disagreement:T=1', 'default')],
};

describe('the power plan’s sources', () => {
  it('names the pilot run behind an effect, and the default where none', async () => {
    render(<PowerPlanSection plan={plan} config={() => ({})} namespaces={SC_NAMESPACES} />);
    const [pilot, fallback] = screen.getAllByTestId('power-row');
    expect(within(pilot).getByTestId('power-effect-source').textContent).toBe('(pilot run “sc-pilot”)');
    expect(within(fallback).getByTestId('power-effect-source').textContent).toBe('(default)');
    expect(pilot.textContent).toContain('Repeats disagree (1 − unanimous rate) vs p0, own (per judge)');
    await i18next.changeLanguage('zh');
    expect(within(pilot).getByTestId('power-effect-source').textContent).toBe('(预实验“sc-pilot”)');
    expect(pilot.textContent).toContain('重复之间不一致');
  });
});
