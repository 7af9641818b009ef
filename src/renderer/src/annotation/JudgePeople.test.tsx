// @vitest-environment jsdom
// The agreement page's judge-and-people sections (issue 36): corrected estimates, Gwet's AC1/AC2
// and the alternative annotator test, in English as the report says them and in 中文.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { computeAgreement } from '../../../shared/annotation/agreement';
import type { JudgeRating } from '../../../shared/annotation/types';
import { seededRandom } from '../../../shared/annotation/random';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi } from '../test/fake-api';
import { AgreementDashboard } from './AgreementDashboard';
import { withoutCanvas, unmountAndDropApiAfterEach } from '../test/dom';

const scale = { kind: 'label' as const, labels: ['CORRECT', 'INCORRECT'] };
const rand = seededRandom('judge-people-page');
const keys = Array.from({ length: 120 }, (_, i) => `u${i}`);
const truth = keys.map(() => (rand() < 0.4 ? 'CORRECT' : 'INCORRECT'));
const judged = (i: number): JudgeRating => ({
  itemKey: keys[i],
  itemId: i,
  judge: 'J',
  category: i % 2 ? 'math' : 'chat',
  kind: 'label',
  // A lenient judge: calls 30 % of the wrong answers correct.
  value:
    truth[i] === 'CORRECT'
      ? rand() < 0.9
        ? 'CORRECT'
        : 'INCORRECT'
      : rand() < 0.3
        ? 'CORRECT'
        : 'INCORRECT',
});
const report = computeAgreement({
  scale,
  items: keys.slice(0, 40).map((k, i) => ({ itemKey: k, category: i % 2 ? 'math' : 'chat' })),
  human: keys.slice(0, 40).map((k, i) => ({ itemKey: k, annotator: 'a', value: truth[i] })),
  judges: keys.slice(0, 40).map((_, i) => judged(i)),
  unlabelledJudges: keys.slice(40).map((_, i) => judged(i + 40)),
  seed: 'set-1',
});

// A pilot of 10 labels: under 5 of the rarer verdict, below what docs/VALIDATION.md checked.
const pilot = computeAgreement({
  scale,
  items: keys.slice(0, 10).map((k, i) => ({ itemKey: k, category: i % 2 ? 'math' : 'chat' })),
  human: keys.slice(0, 10).map((k, i) => ({ itemKey: k, annotator: 'a', value: truth[i] })),
  judges: keys.slice(0, 10).map((_, i) => judged(i)),
  unlabelledJudges: keys.slice(10).map((_, i) => judged(i + 10)),
  seed: 'set-1',
});

withoutCanvas();
unmountAndDropApiAfterEach({ backToEnglish: true });

describe('judge and people together on the agreement page', () => {
  it('shows every estimator with its interval, width and n_eff', async () => {
    setApi(new FakeApi({ 'annotation.agreement': () => report }));
    render(<AgreementDashboard setId={1} />);
    const section = await screen.findByTestId('judge-people-estimates');
    const table = within(section).getByTestId('agreement-table-estimates');
    const methods = [...table.querySelectorAll('td[data-key="method"]')].map((td) => td.textContent);
    expect(methods).toEqual([
      'Judge alone (naive)',
      'People alone',
      'PPI',
      'PPI++',
      'Rogan–Gladen',
      'Stratified PPI++',
    ]);
    expect(section.textContent).toContain('the share labelled CORRECT');
    const widths = [...table.querySelectorAll('td[data-key="width"]')].map((td) => Number(td.textContent));
    expect(widths.every((w) => w > 0 && w <= 1)).toBe(true);
    // 10–19 human labels of the rarer verdict: inside what the validation checked (≥ 93 % down to
    // about 5, docs/VALIDATION.md), so no estimate's interval is said to run short.
    const rarer = report.judge_and_people.judges[0].rarer_verdict_labels;
    expect(rarer).toBeGreaterThanOrEqual(10);
    expect(rarer).toBeLessThan(20);
    const notes = [...table.querySelectorAll('td[data-key="note"]')].map((td) => td.textContent);
    expect(notes.filter((n) => n!.includes('rarer verdict'))).toHaveLength(0);
    // One annotator: the alternative annotator test says it cannot run, and why.
    expect(screen.getByTestId('agreement-table-alt_test').textContent).toContain(
      'undefined (fewer than 3 annotators)',
    );
    expect(screen.getByTestId('agreement-table-gwet').textContent).toContain('AC1');
  });
  it('says it in 中文', async () => {
    await i18next.changeLanguage('zh');
    setApi(new FakeApi({ 'annotation.agreement': () => report }));
    render(<AgreementDashboard setId={1} />);
    const section = await screen.findByTestId('judge-people-estimates');
    expect(section.textContent).toContain('评审模型与人工结合：校正后的估计');
    expect(section.textContent).toContain('标为 CORRECT 的比例');
    expect(section.textContent).toContain('仅评审模型（朴素）');
    expect(section.textContent).toContain('只含评审模型的抽样误差，不含其偏差');
    expect(section.textContent).toMatch(/灵敏度 \d\.\d{3}，特异度 \d\.\d{3}/);
    expect(screen.getByTestId('agreement-caption-estimates').textContent).toContain('Rogan–Gladen：θ =');
    expect(screen.getByTestId('agreement-caption-alt_test').textContent).toContain('ε = 0.2');
    expect(screen.getByTestId('agreement-table-alt_test').textContent).toContain('无定义（标注者少于 3 人）');
    expect(screen.getByTestId('agreement-caption-gwet').textContent).toContain('AC1（名义标签）');
    expect(screen.getByTestId('agreement-table-gwet').textContent).toContain('人与人');
    cleanup();
    const rarer = pilot.judge_and_people.judges[0].rarer_verdict_labels;
    expect(rarer).toBeGreaterThanOrEqual(2);
    expect(rarer).toBeLessThan(5);
    setApi(new FakeApi({ 'annotation.agreement': () => pilot }));
    render(<AgreementDashboard setId={1} />);
    const few = await screen.findByTestId('judge-people-estimates');
    expect(few.textContent).toContain(`较少见的判定只有 ${rarer} 个人工标签（少于 5 个）：区间可能偏窄`);
  });
  it('asks the core again with the ε the researcher sets', async () => {
    const api = new FakeApi({ 'annotation.agreement': () => report });
    setApi(api);
    render(<AgreementDashboard setId={1} />);
    await screen.findByTestId('judge-people-estimates');
    expect(api.calls.at(-1)!.params).toMatchObject({ epsilon: 0.2 });
    fireEvent.change(screen.getByTestId('agreement-epsilon'), { target: { value: '0.1' } });
    await waitFor(() => expect(api.calls.at(-1)!.params).toMatchObject({ setId: 1, epsilon: 0.1 }));
  });
});
