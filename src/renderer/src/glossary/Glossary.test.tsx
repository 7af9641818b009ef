import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18next } from '../i18n';
import type { TableColumn } from '../../../shared/report/table';
import { SortableTable } from '../results/SortableTable';
import { glossaryFor } from './entries';
import { GlossaryDialog } from './Glossary';
import './i18n';

afterEach(async () => {
  cleanup();
  await act(() => i18next.changeLanguage('en'));
});

const col = (key: string, header: string, kind: TableColumn['kind'] = 'pct'): TableColumn => ({
  key,
  header,
  align: 'r',
  kind,
});
const COLUMNS = [
  col('judge', 'Judge', 'text'),
  col('accuracy_tie_half', 'Acc. (tie-half)'),
  col('accuracy_tie_half_ci', '95% CI', 'ci'),
  col('accuracy_strict_ci', '95% CI', 'ci'),
  col('accuracy_change_ci', '95% CI', 'ci'),
  col('kappa_ci', 'κ 95% CI', 'text'),
  col('rho_ci', 'ρ 95% CI', 'text'),
  col('inconsistency_rate', 'Inconsistent'),
  col('mcnemar_p', 'McNemar p', 'p'),
  col('p', 'p', 'p'),
  col('kappa', 'κ', 'text'),
  col('flip_rate', 'Flip rate'),
];

function show() {
  render(
    <>
      <SortableTable columns={COLUMNS} rows={[]} caption="t" />
      <GlossaryDialog />
    </>,
  );
}

describe('statistics glossary', () => {
  it('maps every statistics column to its entry, and leaves plain columns alone', () => {
    expect(COLUMNS.map((c) => glossaryFor(c.key))).toEqual([
      null,
      'tieHalf',
      'tieHalfCi',
      'wilson',
      'newcombe',
      'kappaCi',
      'fisherZ',
      'position',
      'mcnemar',
      'multiple',
      'kappa',
      'flips',
    ]);
  });

  it('sends the noise floor’s interval columns to their methods, not all to Wilson', () => {
    // Judge-LS and reference sensitivity: the excess flip rate is a paired difference (Newcombe);
    // the repeat flip rate a rate (Wilson); bias probes' mean and excess differences a t interval.
    expect(
      ['excess_flip_rate_ci', 'repeat_flip_rate_ci', 'flip_rate_ci', 'excess_ci', 'mean_ci'].map(glossaryFor),
    ).toEqual(['newcombe', 'wilson', 'wilson', 'tMeanCi', 'tMeanCi']);
    // A Holm-adjusted p opens Holm, not the test it adjusts; ρ's interval of the agreement report
    // is Fisher's z, not Wilson.
    expect(
      ['mcnemar_p_holm', 'binomial_p_holm', 'p_holm', 'mcnemar_p', 'spearman_rho_ci'].map(glossaryFor),
    ).toEqual(['holm', 'holm', 'holm', 'mcnemar', 'fisherZ']);
  });

  it('opens the entry from the "?" of a table header, links to the others, and closes with Escape', () => {
    show();
    const links = screen.getAllByTestId('glossary-link');
    expect(links).toHaveLength(11);
    const ci = links.find((l) => l.dataset.entry === 'wilson')!;
    expect(ci.getAttribute('aria-label')).toBe('What is Wilson 95% CI?');
    fireEvent.click(ci);
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Wilson score method');
    // The entry links its rows of the validation report (their anchors are held to it in
    // test/validation/glossary-anchors.test.ts).
    expect(screen.getByTestId('glossary-validation').textContent).toContain('docs/VALIDATION.md#wilson');
    fireEvent.click(screen.getByRole('button', { name: 'Holm correction' }));
    expect(screen.getByTestId('glossary-body').textContent).toContain('(m − k + 1)');
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(ci);
  });

  it("names the tie-half interval's own method, not Wilson on a proportion", () => {
    show();
    fireEvent.click(screen.getAllByTestId('glossary-link').find((l) => l.dataset.entry === 'tieHalfCi')!);
    expect(screen.getByTestId('glossary-body').textContent).toContain(
      'Wilson score interval applied to the mean',
    );
  });

  it('speaks 中文 in the Chinese UI', async () => {
    await act(() => i18next.changeLanguage('zh'));
    show();
    fireEvent.click(screen.getAllByTestId('glossary-link').find((l) => l.dataset.entry === 'mcnemar')!);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('McNemar 检验');
    expect(screen.getByTestId('glossary-body').textContent).toContain('配对');
  });
});
