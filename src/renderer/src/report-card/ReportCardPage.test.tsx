// The report card page on a card the core's own gate rules evaluated: every gate with its rule,
// status and source; each experiment's rows with n and interval, linked to its results; simulated
// and recorded experiments badged; an undefined value says so and why; 中文 too; files download.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  evaluateGates,
  gateDeclarations,
  resolveGates as resolveDeclared,
} from '../../../shared/report-card/gates';
import { BIAS_GATES } from '../../../shared/protocols/bias-probes/report/gates';
import { JUDGE_LS_GATES } from '../../../shared/protocols/judge-ls/report/gates';
import { SELF_CONSISTENCY_GATES } from '../../../shared/protocols/self-consistency/report/gates';
import type { GateSettings } from '../../../shared/report-card/types';

// The gates the core offers with the built-in studies registered (main/report-card/gates-file.ts).
const DECLARED = gateDeclarations([...JUDGE_LS_GATES, ...BIAS_GATES, ...SELF_CONSISTENCY_GATES]);
const resolveGates = (settings: GateSettings) => resolveDeclared(settings, DECLARED);
import type { CardExperiment, GateCheck, JudgeSummary, ReportCard } from '../../../shared/report-card/types';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi } from '../test/fake-api';
import '../protocols';
import './i18n';
import { ReportCardPage } from './ReportCardPage';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

// Conditions as the protocols phrase them (their card words are in their registry entries).
const EN = { key: 'language', params: { language: 'EN' } };
const NO_FLOOR = { key: 'no_floor', params: { comparison: 'EN-ZH' } };
const LENGTH = { key: 'probe_effect', params: { probe: 'length', effect: 'longer', mode: 'pairwise' } };

const LIVE: CardExperiment = {
  experimentId: 3,
  name: 'Judge-LS <b>live</b>',
  protocol: 'judge-ls',
  protocolTitle: 'Judge-LS: language-switching invariance',
  dataset: 'LLMBar (sample)',
  datasetId: 1,
  items: 40,
  status: 'finished',
  labels: ['GPT'],
  simulated: false,
  recorded: false,
  rows: [
    {
      judge: 'GPT',
      measure: 'accuracy',
      label: 'Accuracy (strict)',
      condition: { key: 'language', params: { language: 'EN' } },
      n: 80,
      value: 0.8125,
      ci: [0.712, 0.883],
      unit: 'pct',
    },
    {
      judge: 'GPT',
      measure: 'flip_rate',
      label: 'Flip rate',
      condition: { key: 'comparison', params: { comparison: 'EN-ZH' } },
      n: 0,
      value: null,
      ci: null,
      unit: 'pct',
      note: { key: 'no_pair_both_languages' },
    },
  ],
};
const RECORDED: CardExperiment = {
  ...LIVE,
  experimentId: 5,
  name: 'Bias probes (recorded)',
  protocol: 'bias-probes',
  protocolTitle: 'Bias probes',
  recorded: true,
  rows: [
    {
      judge: 'GPT',
      measure: 'effect_dz',
      label: "Cohen's d_z",
      condition: LENGTH,
      n: 30,
      value: 0.31,
      ci: null,
      unit: 'num',
      note: { key: 'dz_no_interval' },
    },
    {
      judge: 'GPT',
      measure: 'bias_effect',
      label: 'Mean win-score change',
      condition: LENGTH,
      n: 1,
      value: 0.5,
      ci: null,
      unit: 'num',
      note: { key: 'fewer_than_two' },
    },
  ],
};
const where = (e: CardExperiment) => ({
  experimentId: e.experimentId,
  experimentName: e.name,
  dataset: e.dataset,
});
const measured: Omit<GateCheck, 'status' | 'reason'>[] = [
  // Position consistency 0.93 with an interval down to 0.85: passes the 0.9 default, but warns.
  { gate: 'position_consistency', condition: EN, n: 40, value: 0.93, ci: [0.85, 0.97], ...where(LIVE) },
  { gate: 'language_flip', condition: NO_FLOOR, n: 40, value: 0.02, ci: [0.005, 0.04], ...where(LIVE) },
  {
    gate: 'length_effect',
    condition: LENGTH,
    n: 30,
    value: 0.31,
    ci: null,
    note: { key: 'dz_no_interval' },
    ...where(RECORDED),
  },
];
const CARD: ReportCard = {
  judge: { kind: 'openai', model: 'gpt-4.1-mini' },
  generatedAt: '2026-12-02T00:00:00.000Z',
  experiments: [LIVE, RECORDED],
  gates: evaluateGates(resolveGates({ language_flip: { threshold: 0.04 } }), measured),
};
const JUDGES: JudgeSummary[] = [
  {
    key: 'openai:gpt-4.1-mini',
    kind: 'openai',
    model: 'gpt-4.1-mini',
    experiments: 2,
    protocols: ['judge-ls', 'bias-probes'],
    recorded: true,
    simulated: false,
  },
  {
    key: 'simulated:sim-judge',
    kind: 'simulated',
    model: 'sim-judge',
    experiments: 1,
    protocols: ['judge-ls'],
    recorded: false,
    simulated: true,
  },
];

// The page's gates editor asks for the gates as it opens; every page test answers it, or its
// error text would land in the card's text on some runs and not others.
const gatesHandler = () => ({ settings: {}, gates: resolveGates({}) });

function setup(query: Record<string, string>) {
  const api = new FakeApi({
    'judges.list': () => JUDGES,
    'judges.reportCard': () => CARD,
    'judges.gates': gatesHandler,
  });
  setApi(api);
  render(<ReportCardPage query={query} />);
  return api;
}

describe('the judge report card page', () => {
  it('lists the judges to choose from, badged', async () => {
    setup({});
    const select = await screen.findByTestId('card-judge');
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'Choose…',
      'openai:gpt-4.1-mini — 2 experiments · Recorded',
      'simulated:sim-judge — 1 experiment · Simulated',
    ]);
  });

  it('shows every gate with its rule, status, decisive measurement, experiment and source', async () => {
    const api = setup({ model: 'openai:gpt-4.1-mini' });
    await screen.findByTestId('report-card');
    expect(api.calls.find((c) => c.method === 'judges.reportCard')?.params).toEqual({
      model: 'openai:gpt-4.1-mini',
    });
    const gate = (id: string) => screen.getByTestId(`gate-${id}`);
    const status = (id: string) => within(gate(id)).getByTestId('gate-status').textContent;
    expect(status('position_consistency')).toBe('warn');
    expect(within(gate('position_consistency')).getByTestId('gate-rule').textContent).toBe('≥ 90.0%');
    expect(gate('position_consistency').textContent).toContain('93.0% [85.0%, 97.0%] n = 40');
    expect(gate('position_consistency').textContent).toContain('the 95% interval reaches past 90.0%');
    expect(gate('position_consistency').textContent).toContain('Zheng et al. (2023)');
    expect(status('language_flip')).toBe('pass');
    expect(gate('language_flip').textContent).toContain('set by the researcher');
    expect(status('length_effect')).toBe('fail');
    expect(within(gate('length_effect')).getByTestId('gate-rule').textContent).toBe('< 0.20');
    expect(gate('length_effect').textContent).toContain(
      "0.31 (no interval: no interval is computed for d_z; the mean change's interval is in the row above) n = 30",
    );
    expect(gate('length_effect').textContent).toContain('length: longer (pairwise)');
    expect(gate('language_flip').textContent).toContain('EN-ZH (no noise floor measured)');
    expect(within(gate('length_effect')).getByRole('link').getAttribute('href')).toBe(
      '#/experiments/5/results',
    );
    expect(within(gate('length_effect')).getByTestId('card-recorded').textContent).toBe('Recorded');
    expect(status('human_rho')).toBe('not measured');
    expect(within(gate('human_rho')).getByTestId('gate-rule').textContent).toBe('≥ 0.80 (whole 95% CI)');
    expect(gate('human_rho').textContent).toContain('No experiment of this judge measured it.');
  });

  it("shows each experiment's rows with n and interval, an undefined value with its reason, names as text", async () => {
    setup({ model: 'openai:gpt-4.1-mini' });
    const sections = await screen.findAllByTestId('card-experiment');
    expect(sections).toHaveLength(2);
    const [live, recorded] = sections;
    // Model and user text is text, never markup.
    expect(within(live).getByTestId('card-experiment-link').textContent).toBe('Judge-LS <b>live</b>');
    expect(live.querySelector('b')).toBeNull();
    expect(within(live).getByTestId('card-experiment-link').getAttribute('href')).toBe(
      '#/experiments/3/results',
    );
    expect(within(live).queryByTestId('card-recorded')).toBeNull();
    expect(within(recorded).getByTestId('card-recorded').textContent).toBe('Recorded');
    const rows = within(live).getAllByTestId('card-row');
    expect(rows[0].textContent).toBe('Accuracy (strict)EN8081.3% [71.2%, 88.3%]');
    expect(within(rows[1]).getByTestId('card-undefined').textContent).toBe(
      'undefined: no pair valid in both languages',
    );
    expect(live.textContent).not.toMatch(/NaN/);
    expect(live.textContent).toContain('LLMBar (sample) · 40 items');
  });

  it('speaks 中文', async () => {
    await i18next.changeLanguage('zh');
    setup({ model: 'openai:gpt-4.1-mini' });
    await screen.findByTestId('report-card');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('评审模型成绩单');
    expect(
      within(screen.getByTestId('gate-position_consistency')).getByTestId('gate-status').textContent,
    ).toBe('警示');
    expect(within(screen.getByTestId('gate-human_rho')).getByTestId('gate-rule').textContent).toBe(
      '≥ 0.80 （95% 区间整体达标）',
    );
    expect(screen.getAllByTestId('card-row')[0].textContent).toContain('准确率（严格）');
    expect(screen.getByTestId('gate-language_flip').textContent).toContain('研究者设定');
    expect(screen.getAllByTestId('card-undefined')[0].textContent).toBe(
      '无定义：没有在两种语言下都有效的配对',
    );
    expect(screen.getByTestId('gate-length_effect').textContent).toContain('长度：加长（成对比较）');
    expect(screen.getByTestId('gate-language_flip').textContent).toContain('EN-ZH（未测量噪声底）');
    // Each experiment's protocol by its title in the page language, not the core's English one.
    const helps = screen
      .getAllByTestId('card-experiment')
      .map((e) => e.querySelector('.results-section__help')!.textContent!);
    expect(helps.some((h) => h.startsWith('偏差探针 · '))).toBe(true);
    expect(helps.some((h) => h.startsWith('Bias probes'))).toBe(false);
  });

  it('says why an interval is missing, in English and 中文', async () => {
    setup({ model: 'openai:gpt-4.1-mini' });
    const recorded = (await screen.findAllByTestId('card-experiment'))[1];
    const cis = () =>
      within(recorded)
        .getAllByTestId('card-ci')
        .map((c) => c.textContent);
    expect(cis()).toEqual([
      "(no interval: no interval is computed for d_z; the mean change's interval is in the row above)",
      '(no interval: fewer than 2 paired differences)',
    ]);
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(cis()).toEqual([
      '(无区间：不计算 d_z 的区间；平均变化的区间见上一行)',
      '(无区间：配对差值少于 2 个)',
    ]);
  });

  it('leaves no English condition, reason, title or status on the 中文 page', async () => {
    await i18next.changeLanguage('zh');
    setup({ model: 'openai:gpt-4.1-mini' });
    const card = await screen.findByTestId('report-card');
    // What the user named (experiments, dataset, judge, model) stays as it is; so do the codes
    // and proper names, and the English titles the literature sources cite.
    const names = [
      LIVE.name,
      RECORDED.name,
      LIVE.dataset,
      'openai',
      'gpt-4.1-mini',
      'GPT',
      'report-card-gates.json',
      '--gates FILE',
    ];
    const allowed = ['EN', 'ZH', 'LS', 'Cohen', 'Judge', 'Markdown', 'PNG', 'SVG', 'JSON', 'CSV', 'LaTeX'];
    const cited =
      /Zheng et al\.|MT-Bench|Dubois et al\.|AlpacaEval|Bavaresco et al\.|LLMs instead of human judges\?|Judge Lab|CALM|Ye et al\., ICLR 2025, arXiv 2410\.02736/g;
    // Text node by text node: buttons side by side would otherwise run together.
    const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    const texts: string[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n.textContent ?? '');
    let rest = texts.join(' ').replace(cited, ' ');
    for (const n of names) rest = rest.split(n).join(' ');
    expect(rest.match(/[A-Za-z]{3,}/g)?.filter((w) => !allowed.includes(w)) ?? []).toEqual([]);
  });

  it('downloads the card through the core, in the page language', async () => {
    const api = new FakeApi({
      'judges.list': () => JUDGES,
      'judges.reportCard': () => CARD,
      'judges.gates': gatesHandler,
      'judges.reportCardFile': (p) => ({
        fileName: `report-card.${p.format}`,
        mime: 'image/png',
        contentBase64: 'iVBORw==',
      }),
    });
    setApi(api);
    render(<ReportCardPage query={{ model: 'openai:gpt-4.1-mini' }} />);
    await screen.findByTestId('report-card');
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('card-download-png'));
    });
    await waitFor(() => expect(saved).toEqual(['report-card.png']));
    // The gates editor loads its own data on its own time: look at the file calls only.
    expect(api.calls.filter((c) => c.method === 'judges.reportCardFile')).toEqual([
      {
        method: 'judges.reportCardFile',
        params: { model: 'openai:gpt-4.1-mini', format: 'png', lang: 'en' },
      },
    ]);
    click.mockRestore();
  });

  it('says what to do when no experiment has a judge', async () => {
    setApi(new FakeApi({ 'judges.list': () => [] }));
    render(<ReportCardPage query={{}} />);
    expect((await screen.findByTestId('card-no-judges')).textContent).toMatch(
      /No experiment in this store has a judge yet/,
    );
  });
});

describe('the gates editor', () => {
  it('saves changed thresholds through the core (shares in percent) and reloads the card', async () => {
    let saved: unknown = null;
    const api = new FakeApi({
      'judges.list': () => JUDGES,
      'judges.reportCard': () => CARD,
      'judges.gates': gatesHandler,
      'judges.setGates': (p) => {
        saved = p.settings;
        return { settings: p.settings, gates: resolveGates(p.settings) };
      },
    });
    setApi(api);
    render(<ReportCardPage query={{ model: 'openai:gpt-4.1-mini' }} />);
    const input = (await screen.findByTestId('gate-threshold-position_consistency')) as HTMLInputElement;
    expect(input.value).toBe('90');
    expect((screen.getByTestId('gate-threshold-length_effect') as HTMLInputElement).value).toBe('0.2');
    fireEvent.change(input, { target: { value: '95' } });
    fireEvent.click(screen.getByTestId('gate-enabled-self_disagreement'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('gates-save'));
    });
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'judges.reportCard')).toHaveLength(2));
    const settings = saved as Record<string, { threshold: number; enabled: boolean }>;
    expect(settings.position_consistency.threshold).toBeCloseTo(0.95, 12);
    expect(settings.length_effect.threshold).toBe(0.2);
    expect(settings.self_disagreement.enabled).toBe(false);
  });
});

describe('the gates editor, in the field’s units', () => {
  it('refuses a percentage above 100 beside its field, in percent, and sends nothing (issue 38 item 10)', async () => {
    const api = new FakeApi({
      'judges.list': () => JUDGES,
      'judges.reportCard': () => CARD,
      'judges.gates': gatesHandler,
      'judges.setGates': (p) => ({ settings: p.settings, gates: resolveGates(p.settings) }),
    });
    setApi(api);
    render(<ReportCardPage query={{ model: 'openai:gpt-4.1-mini' }} />);
    const input = (await screen.findByTestId('gate-threshold-position_consistency')) as HTMLInputElement;
    fireEvent.change(input, { target: { value: '150' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('gates-save'));
    });
    const problem = await screen.findByTestId('gate-problem-position_consistency');
    expect(problem.textContent).toBe('Enter a percentage from 0 to 100 (e.g. 90).');
    expect(problem.textContent).not.toMatch(/share|0 and 1/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(api.calls.some((c) => c.method === 'judges.setGates')).toBe(false);
  });
});

describe('the report card route', () => {
  it('is linked to by judge model, colons and all', async () => {
    const { parseHash, routeHref } = await import('../stores/route');
    const href = routeHref({ name: 'judges', query: { model: 'openai:ft:gpt-4.1-mini:org' } });
    expect(parseHash(href)).toEqual({ name: 'judges', query: { model: 'openai:ft:gpt-4.1-mini:org' } });
    expect(parseHash('#/judges')).toEqual({ name: 'judges', query: {} });
  });
});
