// The decision panel (issue 20 items 4 and 10): "undefined" with the reason when ρ does not exist,
// a warning when the decision rests on ρ = ±1, and the one-sentence rule behind "about N more".
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { JudgeHumanRow } from '../../../shared/annotation/agreement';
import { i18next } from '../i18n';
import { DecisionPanel } from './AgreementDashboard';

afterEach(async () => {
  cleanup();
  await act(() => i18next.changeLanguage('en'));
});

const base: JudgeHumanRow = {
  judge: 'J',
  variant: 'raw',
  n: 28,
  spearman_rho: 0.7,
  spearman_rho_ci: [0.44, 0.85],
  pearson_r: 0.7,
  kendall_tau_b: 0.6,
  kappa: 0.5,
  kappa_ci: [0.3, 0.7],
  kappa_weights: 'quadratic',
  exact_agreement: 0.5,
  decision: 'undecided',
  more_items: 59,
};

const rows: JudgeHumanRow[] = [
  base,
  {
    ...base,
    judge: 'Constant',
    spearman_rho: null,
    spearman_rho_ci: null,
    spearman_rho_ci_undefined_reason: 'one side constant',
    decision: 'undefined',
    more_items: null,
    decision_reason: 'judge constant',
  },
  {
    ...base,
    judge: 'Perfect',
    spearman_rho: 1,
    spearman_rho_ci: null,
    spearman_rho_ci_undefined_reason: 'ρ = ±1',
    decision: 'replace',
    more_items: null,
    decision_warning: 'ρ = ±1, no interval',
  },
];

const rowOf = (judge: string) =>
  screen.getByTestId('decision-panel').querySelector(`[data-judge="${judge}"]`)!.textContent ?? '';

describe('DecisionPanel', () => {
  it('explains the count, says undefined and why, and warns on ρ = 1', () => {
    render(<DecisionPanel rows={rows} threshold={0.8} />);
    expect(rowOf('J')).toContain('Rate about 59 more items.');
    expect(screen.getByTestId('decision-more-rule').textContent).toContain(
      'the 95% interval around the same ρ, as widely spread as these ratings show it now and narrowing as 1/√(n − 3), would no longer include 0.8',
    );
    expect(rowOf('Constant')).toContain(
      'Undefined: the judge gave every one of these 28 items the same rating',
    );
    expect(rowOf('Constant')).toContain('95% CI undefined (one side constant)');
    expect(rowOf('Constant')).not.toContain('Undecided');
    expect(screen.getByTestId('decision-warning').textContent).toContain('Fisher-z interval does not exist');
    expect(rowOf('Perfect')).toContain('Can cautiously replace');
  });

  it('speaks 中文', async () => {
    await act(() => i18next.changeLanguage('zh'));
    render(<DecisionPanel rows={rows} threshold={0.8} />);
    expect(screen.getByTestId('decision-more-rule').textContent).toContain('ρ 越接近 0.8');
    expect(rowOf('Constant')).toContain('无定义：评审模型对这 28 个条目给出的评分全部相同');
    expect(rowOf('Constant')).toContain('无定义（一方恒定）');
    expect(rowOf('Perfect')).toContain('无定义（ρ = ±1）');
    expect(screen.getByTestId('decision-warning').textContent).toContain('Fisher-z 置信区间不存在');
  });

  it('advises no more items and no replacement while people agree poorly (issue 38 item 10)', async () => {
    render(<DecisionPanel rows={rows} threshold={0.8} peopleAgreePoorly />);
    expect(rowOf('J')).toContain('people agree too poorly to validate a judge');
    expect(rowOf('J')).not.toContain('more items.');
    expect(rowOf('Perfect')).not.toContain('Can cautiously replace');
    expect(screen.queryByTestId('decision-more-rule')).toBeNull();
    // Undefined stays undefined, with its reason.
    expect(rowOf('Constant')).toContain(
      'Undefined: the judge gave every one of these 28 items the same rating',
    );
    cleanup();
    await act(() => i18next.changeLanguage('zh'));
    render(<DecisionPanel rows={rows} threshold={0.8} peopleAgreePoorly />);
    expect(rowOf('J')).toContain('人与人之间的一致性太低');
  });
});
