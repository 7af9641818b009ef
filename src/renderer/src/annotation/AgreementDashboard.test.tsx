// @vitest-environment jsdom
// The agreement dashboard in 中文: the tables' captions are Chinese sentences carrying the
// report's numbers (the export keeps the English ones); in English they are the report's.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { computeAgreement } from '../../../shared/annotation/agreement';
import type { JudgeRating } from '../../../shared/annotation/types';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { drawnOption } from '../test/charts';
import { FakeApi } from '../test/fake-api';
import { AgreementDashboard } from './AgreementDashboard';
import { withoutCanvas, unmountAndDropApiAfterEach } from '../test/dom';

const scale = { kind: 'score' as const, min: 1, max: 5 };
const items = Array.from({ length: 12 }, (_, i) => ({ itemKey: `i${i}`, category: i < 6 ? 'math' : 'chat' }));
const truth = [1, 2, 3, 4, 5, 3, 2, 4, 5, 1, 3, 4];
const report = computeAgreement({
  scale,
  items,
  human: items.flatMap((it, i) => [
    { itemKey: it.itemKey, annotator: 'a', value: truth[i] },
    { itemKey: it.itemKey, annotator: 'b', value: Math.min(5, truth[i] + (i % 2)) },
  ]),
  judges: items.map((it, i): JudgeRating => ({
    itemKey: it.itemKey,
    itemId: i + 1,
    judge: 'J',
    category: it.category,
    kind: 'score',
    value: Math.max(1, truth[i] - 1 + (i % 3 === 0 ? 1 : 0)),
  })),
  seed: 'set-1',
});

withoutCanvas();
unmountAndDropApiAfterEach({ backToEnglish: true });

const captions = () =>
  ['inter_annotator', 'judge_human', 'bands', 'categories'].map(
    (id) => screen.getByTestId(`agreement-caption-${id}`).textContent ?? '',
  );

describe('agreement dashboard captions', () => {
  it('are Chinese in 中文, with the report numbers, and no English sentence left', async () => {
    await i18next.changeLanguage('zh');
    setApi(new FakeApi({ 'annotation.agreement': () => report }));
    render(<AgreementDashboard setId={1} />);
    await screen.findByTestId('agreement-dashboard');
    const [people, judge, bands, categories] = captions();
    expect(people).toContain(`基于每位标注者都评过的 ${report.inter_annotator.n_complete} 个条目`);
    expect(people).toContain('Krippendorff α（有序）');
    expect(judge).toContain('二次加权 Cohen κ');
    expect(judge).toContain('决策按 ρ ≥ 0.8 作用于置信区间');
    expect(bands).toContain('按人工中位数划分三分位：看一致性在哪里失效。');
    expect(categories).toMatch(/^按条目的类别（子集、QA 类别或语言）。κ 的置信区间为 κ ± 1.96 SE，截取到/);
    for (const c of captions()) expect(c).not.toMatch(/(?:[A-Za-z]+\s+){3,}[A-Za-z]+/);
    // The two figures: titles, axes and legends in Chinese.
    const figures = [...screen.getByTestId('agreement-dashboard').querySelectorAll('[data-figure]')];
    const options = await Promise.all(figures.map((el) => drawnOption(() => el)));
    const titles = options.map((o) => (o.title as { text: string }[])[0].text);
    expect(titles).toEqual(['评审模型与人工对比，含校准映射', '按人工质量分段的 Spearman ρ']);
    expect((options[0].yAxis as { name: string }[])[0].name).toBe('人工中位数');
    expect((options[1].series as { name: string }[]).map((s) => s.name)).toEqual(['低', '中', '高']);
  });

  it('are the report’s English captions in English', async () => {
    setApi(new FakeApi({ 'annotation.agreement': () => report }));
    render(<AgreementDashboard setId={1} />);
    await screen.findByTestId('agreement-dashboard');
    expect(captions()[3]).toMatch(
      /^Per category of the items \(subset, QA category or language\)\. κ's CI: κ ± 1\.96 SE clipped/,
    );
  });
});
