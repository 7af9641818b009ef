// @vitest-environment jsdom
// The bias-probes results page: a bias profile per judge on one axis (significant effects
// marked), the histograms and scatter, the tables, and the variant browser showing model text
// as text beside its source with a diff; and the wizard's config keys.
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBiasTables } from '../../../../shared/protocols/bias-probes/report/tables';
import type {
  BiasMetrics,
  InstructionParaphrases,
  ProbeRow,
} from '../../../../shared/protocols/bias-probes/types';
import type { BiasVariantView } from '../../../../shared/protocols/bias-probes/views';
import type { ExperimentResults } from '../../../../shared/experiments';
import { setApi } from '../../api';
import { i18next } from '../../i18n';
import type { WizardDraft } from '../../lib/experiment-config';
import { drawnOption } from '../../test/charts';
import { FakeApi, protocolViews } from '../../test/fake-api';
import { unmountAndDropApiAfterEach, withoutCanvas } from '../../test/dom';
import { type ResultsExperiment, renderResultsPage, resultsApi } from '../../test/results';
import { VariantBrowser } from './VariantBrowser';
import { biasConfig, initialBiasDraft, withBiasDraft } from './draft';
import '../index';

const row = (judge: string, effect: ProbeRow['effect'], mean: number, significant: boolean): ProbeRow => ({
  judge,
  category: 'all',
  probe: effect === 'position' ? 'position' : effect === 'markdown' ? 'format' : 'length',
  effect,
  n: 100,
  items: 50,
  mean,
  mean_ci: [mean - 0.2, mean + 0.2],
  sd: 1,
  dz: mean,
  p: significant ? 0.001 : 0.4,
  p_method: 'approx',
  p_holm: significant ? 0.003 : 0.4,
  significant,
});

const METRICS: BiasMetrics = {
  mode: 'pointwise',
  scale: 5,
  probes: [row('J1', 'longer', 0.8, true), row('J1', 'markdown', 0.1, false), row('J2', 'longer', 1.5, true)],
  position: [],
  length_correlation: [
    {
      judge: 'J1',
      category: 'all',
      n: 3,
      pearson_r: 0.5,
      pearson_p: 0.6,
      spearman_r: 0.5,
      spearman_p: 0.6,
      n_human: 0,
      partial_spearman_r: null,
      partial_spearman_p: null,
    },
  ],
  debiased: [{ judge: 'J1', category: 'all', n: 3, raw_mean: 3, debiased_mean: 2.8 }],
  audit: {
    checks: {
      longer_band: [1.3, 1.7],
      shorter_band: [0.4, 0.9],
      markdown_tolerance: 0.15,
      numbers_kept: true,
      not_empty: true,
    },
    variants: [{ variant: 'longer', made: 3, flagged: 1, none: 0 }],
    flagged: [{ item_id: 'x1', response: 'output_1', variant: 'longer', reasons: ['numbers missing: 42'] }],
  },
  sensitivity: { excluded_item_ids: ['x1'], probes: [] },
  scatter: [
    { judge: 'J1', item_id: 'x1', response: 'output_1', tokens: 10, score: 2 },
    { judge: 'J1', item_id: 'x2', response: 'output_1', tokens: 30, score: 4 },
  ],
  differences: [{ judge: 'J1', effect: 'longer', diffs: [1, 1, 0] }],
  usage: [],
  failures: [],
};

const VARIANTS: BiasVariantView[] = [
  {
    itemId: 'x1',
    category: null,
    response: 'output_1',
    variant: 'longer',
    instruction: 'Say hi',
    base: 'Hello <b>there</b> 42',
    baseLabel: 'original',
    text: 'Hello <b>there</b>, hello again',
    ratio: 1.5,
    reasons: ['numbers missing: 42'],
    judgments: [
      {
        judge: 'J1',
        order: null,
        base: { value: '3', reason: 'ok' },
        variant: { value: '4', reason: 'longer' },
      },
    ],
  },
];

withoutCanvas();
unmountAndDropApiAfterEach();

const EXPERIMENT: ResultsExperiment = { id: 3, name: 'Bias', datasetName: 'LLMBar', datasetId: 1 };

/** The fixture's metrics as the core serves them, with `flagged` items and all calls done. */
function biasResults(flagged: ExperimentResults['flagged'] = []): ExperimentResults<BiasMetrics> {
  return {
    protocol: 'bias-probes',
    metrics: METRICS,
    tables: buildBiasTables(METRICS),
    flagged,
    counts: { planned: 10, ok: 10, failed: 0, pending: 0 },
    simulated: false,
  };
}

describe('bias-probes results', () => {
  it('draws one profile per judge on a shared axis, marks significant effects, and browses variants as text', async () => {
    setApi(
      resultsApi(
        biasResults([{ item_id: 'x1', reasons: ['output_1 longer: numbers missing: 42'] }]),
        EXPERIMENT,
        {
          'experiments.protocolView': protocolViews({ variants: () => VARIANTS }),
        },
      ),
    );
    renderResultsPage(3);
    const profiles = await screen.findByTestId('bias-profiles');
    const charts = profiles.querySelectorAll('[data-figure]');
    expect(charts).toHaveLength(2);
    const options = await Promise.all([...charts].map((c) => drawnOption(() => c)));
    // The same x range for both judges: the widest CI (J2: up to 1.7) sets it.
    const ranges = options.map((o) => {
      const x = (o.xAxis as { min: number; max: number }[])[0];
      return [x.min, x.max];
    });
    expect(ranges[0]).toEqual(ranges[1]);
    expect(ranges[0][1]).toBeGreaterThanOrEqual(1.7);
    const series = options[0].series as { name: string; data: number[][] }[];
    expect(series.find((s) => s.name === 'Holm p < 0.05')!.data).toEqual([[0.8, 0]]);
    expect(series.find((s) => s.name === 'Not significant')!.data).toEqual([[0.1, 1]]);
    expect(screen.getByTestId('chart-differences_longer')).toBeTruthy();
    expect(screen.getByTestId('chart-length_scatter')).toBeTruthy();
    for (const id of ['bias_profile', 'length_correlation', 'debiased', 'audit', 'flagged', 'sensitivity'])
      expect(screen.getByTestId(`section-${id}`)).toBeTruthy();

    const detail = await screen.findByTestId('bias-variant-detail');
    expect(screen.getByTestId('bias-base-text').textContent).toBe('Hello <b>there</b> 42');
    expect(detail.querySelector('b')).toBeNull();
    const diff = screen.getByTestId('bias-diff');
    expect([...diff.querySelectorAll('ins')].map((e) => e.textContent).join('')).toContain('hello again');
    expect([...diff.querySelectorAll('del')].map((e) => e.textContent).join('')).toContain('42');
    expect(screen.getByTestId('bias-judgments').textContent).toContain('longer');
    // The filter offers a derived text an effect perturbs toward (an added reference or sentence)
    // and the plain text a rewrite starts from, not the neutral notes already shown beside theirs.
    const offered = [...(screen.getByTestId('bias-variant-filter') as HTMLSelectElement).options].map(
      (o) => o.value,
    );
    expect(offered).toEqual(
      expect.arrayContaining(['authority', 'distraction', 'warmer', 'harsher', 'plain']),
    );
    for (const base of ['authority_neutral', 'distraction_neutral']) expect(offered).not.toContain(base);
    fireEvent.change(screen.getByTestId('bias-variant-filter'), { target: { value: 'markdown' } });
    expect(await screen.findByText('No variants yet.')).toBeTruthy();
  });

  it("shows each judge's repeat on the original beside its first answer, marked when it changed", async () => {
    const withRepeat: BiasVariantView = {
      ...VARIANTS[0],
      judgments: [
        { ...VARIANTS[0].judgments[0], repeat: { value: '2', reason: 'again <i>x</i>' } },
        {
          judge: 'J2',
          order: null,
          base: { value: '4', reason: '' },
          variant: null,
          repeat: { value: '4', reason: '' },
        },
        { judge: 'J3', order: null, base: { value: '5', reason: '' }, variant: null, repeat: null },
      ],
    };
    setApi(new FakeApi({ 'experiments.protocolView': protocolViews({ variants: () => [withRepeat] }) }));
    render(<VariantBrowser experimentId={3} />);
    const table = await screen.findByTestId('bias-judgments');
    expect(table.textContent).toContain('On the unchanged text, asked again (noise floor)');
    const cells = screen.getAllByTestId('bias-repeat-cell');
    expect(cells.map((c) => c.dataset.changed)).toEqual(['true', 'false']);
    expect(cells[0].textContent).toContain('changed on repeat as well');
    expect(cells[1].textContent).toContain('same on repeat');
    // Model text as text; a judge without a stored repeat shows a dash, not a marker.
    expect(cells[0].querySelector('i')).toBeNull();
    expect(table.querySelectorAll('tbody tr')[2].textContent).toContain('—');
  });

  it('shows a prompt-only condition as the judge saw it beside its base, the added note as the diff, as text', async () => {
    const prompt: BiasVariantView = {
      ...VARIANTS[0],
      variant: 'note_test',
      baseLabel: 'original',
      kind: 'prompt',
      ratio: null,
      reasons: [],
      base: '<response>\nHi <b>x</b>\n</response>',
      text: '<response>\nHi <b>x</b>\n</response>\n\nNote: <i>most</i> liked it.',
    };
    setApi(new FakeApi({ 'experiments.protocolView': protocolViews({ variants: () => [prompt] }) }));
    render(<VariantBrowser experimentId={3} />);
    const detail = await screen.findByTestId('bias-variant-detail');
    expect(detail.textContent).toContain('The judge’s prompt: Original');
    expect(detail.textContent).toContain('changes what the judge is told');
    expect(screen.getByTestId('bias-variant-text').textContent).toBe(prompt.text);
    const diff = screen.getByTestId('bias-diff');
    expect([...diff.querySelectorAll('ins')].map((e) => e.textContent).join('')).toContain(
      'Note: <i>most</i> liked it.',
    );
    expect(diff.querySelectorAll('del')).toHaveLength(0);
    expect(detail.querySelector('i, b')).toBeNull();
    await i18next.changeLanguage('zh');
    expect((await screen.findByTestId('bias-variant-detail')).textContent).toContain('评审看到的提示：原文');
    await i18next.changeLanguage('en');
  });

  it('has no repeat column without the noise floor', async () => {
    setApi(new FakeApi({ 'experiments.protocolView': protocolViews({ variants: () => VARIANTS }) }));
    render(<VariantBrowser experimentId={3} />);
    const table = await screen.findByTestId('bias-judgments');
    expect(table.textContent).not.toContain('asked again');
    expect(screen.queryAllByTestId('bias-repeat-cell')).toHaveLength(0);
  });

  it('shows the judging instructions beside each paraphrase, as text, with its changed verdicts (EN, 中文)', async () => {
    const block: InstructionParaphrases = {
      condition: 'rubric_paraphrase',
      original: 'Judge how well the response follows the instruction.',
      band: [0.7, 1.4],
      paraphrases: [
        {
          paraphrase: 0,
          text: 'Assess how closely the <b>answer</b> follows the request.',
          ratio: 1.0,
          reasons: [],
        },
        { paraphrase: 1, text: null, ratio: null, reasons: [] },
      ],
      rows: [
        {
          judge: 'J1',
          paraphrase: 0,
          n: 10,
          mean: 0.4,
          changed: 4,
          changed_rate: 0.4,
          changed_rate_ci: [0.17, 0.69],
        },
        {
          judge: 'J1',
          paraphrase: 1,
          n: 0,
          mean: null,
          changed: 0,
          changed_rate: null,
          changed_rate_ci: null,
        },
      ],
    };
    setApi(new FakeApi({ 'experiments.protocolView': protocolViews({ variants: () => VARIANTS }) }));
    render(<VariantBrowser experimentId={3} paraphrases={[block]} />);
    const side = await screen.findByTestId('bias-instructions');
    expect(side.textContent).toContain('Original instructions');
    expect(side.textContent).toContain(block.original);
    const [first, second] = screen.getAllByTestId('bias-paraphrase');
    // Model text as text: the tag is shown, not rendered.
    expect(first.textContent).toContain('Assess how closely the <b>answer</b> follows the request.');
    expect(first.querySelector('b')).toBeNull();
    expect(first.textContent).toContain('J1: 4 of 10 verdicts changed');
    expect(second.textContent).toContain('The rewriter gave no paraphrase.');
    await i18next.changeLanguage('zh');
    try {
      expect((await screen.findByTestId('bias-instructions')).textContent).toContain('原评审说明');
      expect(screen.getAllByTestId('bias-paraphrase')[0].textContent).toContain('J1：10 个判决中 4 个改变');
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('edits a rewrite by hand: sends the text and who, shows the re-audited row and the re-planned calls (EN, 中文)', async () => {
    const editedRow: BiasVariantView = {
      ...VARIANTS[0],
      text: 'Hello there 42, written by hand',
      reasons: [],
      edited: { by: 'Ada', at: '2026-12-07T00:00:00.000Z' },
    };
    const api = new FakeApi({
      'experiments.protocolView': protocolViews({ variants: () => VARIANTS }),
      'experiments.protocolEdit': () => ({
        row: editedRow,
        replanned: 1,
        estimate: { calls: 1, cachedCalls: 0 },
      }),
    });
    setApi(api);
    render(<VariantBrowser experimentId={3} />);
    fireEvent.click(await screen.findByTestId('bias-edit'));
    const save = screen.getByTestId('bias-edit-save') as HTMLButtonElement;
    // Unchanged text or no name: nothing to save.
    expect(save.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('bias-edit-text'), { target: { value: editedRow.text } });
    expect(save.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('bias-edit-by'), { target: { value: ' Ada ' } });
    fireEvent.click(save);
    expect((await screen.findByTestId('bias-edit-saved')).textContent).toContain(
      '1 judge calls showed the old text',
    );
    expect(api.calls.find((c) => c.method === 'experiments.protocolEdit')!.params).toEqual({
      experimentId: 3,
      edit: 'rewrite',
      fields: {
        itemId: 'x1',
        response: 'output_1',
        variant: 'longer',
        text: editedRow.text,
        editedBy: 'Ada',
      },
    });
    // The row as the core audited it again: the new text, its flag gone, who edited it.
    expect(screen.getByTestId('bias-variant-text').textContent).toBe(editedRow.text);
    expect(screen.getByTestId('bias-variant-detail').textContent).not.toContain('numbers missing');
    expect(screen.getByTestId('bias-edited').textContent).toContain('edited by hand by Ada');
    await i18next.changeLanguage('zh');
    try {
      expect((await screen.findByTestId('bias-edited')).textContent).toContain('由 Ada 人工编辑');
      expect(screen.getByTestId('bias-edit').textContent).toBe('编辑文本');
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('edits a paraphrase of the judging instructions by hand, naming the paraphrase', async () => {
    const block: InstructionParaphrases = {
      condition: 'rubric_paraphrase',
      original: 'Judge how well the response follows the instruction.',
      band: [0.7, 1.4],
      paraphrases: [{ paraphrase: 0, text: 'Assess how well it follows.', ratio: 0.6, reasons: ['length'] }],
      rows: [],
    };
    const api = new FakeApi({
      'experiments.protocolView': protocolViews({ variants: () => VARIANTS }),
      'experiments.protocolEdit': () => ({
        row: {
          variant: 'rubric_paraphrase',
          paraphrase: 0,
          text: 'Rate how well the response follows the instruction.',
          ratio: 1,
          reasons: [],
          edited_by: 'Grace',
          edited_at: '2026-12-07T00:00:00.000Z',
        },
        replanned: 6,
        estimate: { calls: 6, cachedCalls: 0 },
      }),
    });
    setApi(api);
    render(<VariantBrowser experimentId={3} paraphrases={[block]} />);
    fireEvent.click(await screen.findByTestId('bias-paraphrase-edit'));
    fireEvent.change(screen.getByTestId('bias-edit-text'), {
      target: { value: 'Rate how well the response follows the instruction.' },
    });
    fireEvent.change(screen.getByTestId('bias-edit-by'), { target: { value: 'Grace' } });
    fireEvent.click(screen.getByTestId('bias-edit-save'));
    expect((await screen.findByTestId('bias-paraphrase-edited')).textContent).toContain('Grace');
    expect(api.calls.find((c) => c.method === 'experiments.protocolEdit')!.params).toMatchObject({
      fields: { variant: 'rubric_paraphrase', paraphrase: 0, editedBy: 'Grace' },
    });
    const shown = screen.getByTestId('bias-paraphrase').textContent!;
    expect(shown).toContain('Rate how well the response follows the instruction.');
    expect(shown).not.toContain('length');
    expect(screen.getByTestId('bias-edit-saved').textContent).toContain('6 judge calls');
  });

  it('turns the wizard draft into the protocol config keys', () => {
    const draft = withBiasDraft({ protocolDrafts: {} } as unknown as WizardDraft, {
      ...initialBiasDraft(),
      mode: 'pairwise',
      probes: { position: true, length: true, format: false },
      rewriter: { provider: 'anthropic', model: ' claude-haiku-4-5 ' },
    });
    expect(biasConfig(draft)).toEqual({
      mode: 'pairwise',
      scale: 5,
      probes: ['position', 'length'],
      lengthBand: [1.3, 1.7],
      rewriter: { provider: 'anthropic', model: 'claude-haiku-4-5' },
    });
    const positionOnly = withBiasDraft(draft, {
      ...initialBiasDraft(),
      probes: { position: true, length: false, format: false },
    });
    expect(biasConfig(positionOnly)).not.toHaveProperty('rewriter');
    expect(
      biasConfig(withBiasDraft(draft, { ...initialBiasDraft(), rubric: '  Be strict.  ' })),
    ).toMatchObject({
      rubric: 'Be strict.',
    });
    expect(biasConfig(withBiasDraft(draft, { ...initialBiasDraft(), rubric: '   ' }))).not.toHaveProperty(
      'rubric',
    );
  });
});

describe('bias-probes results in 中文', () => {
  afterEach(() => void i18next.changeLanguage('en'));

  it('draws the profile, histograms and scatter with Chinese axes, legends and row labels', async () => {
    await i18next.changeLanguage('zh');
    setApi(
      resultsApi(biasResults(), EXPERIMENT, {
        'experiments.protocolView': protocolViews({ variants: () => [] }),
      }),
    );
    renderResultsPage(3);
    const profiles = await screen.findByTestId('bias-profiles');
    const option = await drawnOption(() => profiles.querySelector('[data-figure]'));
    expect((option.xAxis as { name: string }[])[0].name).toBe('评分差（1–5 分制）');
    expect((option.yAxis as { data: string[] }[])[0].data).toEqual(['加长 − 原文', 'Markdown − 纯文本']);
    expect((option.series as { name: string }[]).map((s) => s.name)).toEqual([
      '95% 置信区间',
      'Holm 校正后 p < 0.05',
      '不显著',
    ]);
    const names = async (id: string) => {
      const o = await drawnOption(() => screen.getByTestId(`chart-${id}`).querySelector('[data-figure]'));
      return [(o.xAxis as { name: string }[])[0].name, (o.yAxis as { name: string }[])[0].name];
    };
    expect(await names('differences_longer')).toEqual(['差值', '配对数']);
    expect(await names('length_scatter')).toEqual(['长度（词元）', '评分']);
    // The tables: titles, captions, headers and fixed cell words in Chinese; no English sentence.
    const profile = screen.getByTestId('section-bias_profile');
    expect(profile.querySelector('h2')!.textContent).toBe('偏差概况：各探针的效应');
    expect(profile.textContent).toContain('按评审模型和类别统计的评分（1–5）配对差');
    expect([...profile.querySelectorAll('th')].map((th) => th.textContent)).toContain('平均差↕');
    expect(profile.textContent).toContain('加长 − 原文');
    expect(screen.getByTestId('section-audit').textContent).toContain('加长 [1.3, 1.7]');
    for (const id of ['bias_profile', 'length_correlation', 'debiased', 'audit', 'sensitivity'])
      expect(screen.getByTestId(`section-${id}`).textContent, id).not.toMatch(
        /(?:[A-Za-z][A-Za-z'’]*\s+){3,}[A-Za-z]+/,
      );
  });
});
