// @vitest-environment jsdom
// The study's report-card declarations on the app's page, with no renderer part of the study:
// the gate's name and source come with its definition, the measure's and the condition's words
// with the card (`ReportCard.words`), in English and 中文. The card is the one the core builds
// from the study's own hooks (run.test.ts checks the core's side against the mock provider).
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setApi } from '../../../src/renderer/src/api';
import { i18next } from '../../../src/renderer/src/i18n';
import { ReportCardPage } from '../../../src/renderer/src/report-card/ReportCardPage';
import { FakeApi } from '../../../src/renderer/src/test/fake-api';
import { evaluateGates, gateDeclarations, resolveGates } from '../../../src/shared/report-card/gates';
import type { ReportCard } from '../../../src/shared/report-card/types';
import { authorityStudy, CUE_GATE, STUDY_ID, type StudyMetrics } from './plugin';

const METRICS: StudyMetrics = {
  cue_shift: [
    {
      judge: 'GPT judge',
      n: 9,
      to_cue: 3,
      away: 0,
      shift_rate: 3 / 9,
      shift_rate_ci: [0.12, 0.65],
      shift_p: 0.25,
      shift_p_holm: 0.25,
    },
  ],
  failures: [],
};
const hooks = authorityStudy.reportCard!;
const own = hooks.contribute(METRICS, 'GPT judge');
const where = { experimentId: 7, experimentName: 'authority-run', dataset: 'LLMBar (sample)' };
const gates = resolveGates({}, gateDeclarations(hooks.gates ?? []));
const CARD: ReportCard = {
  judge: { kind: 'openai', model: 'gpt-4.1-mini' },
  generatedAt: '2026-12-06T00:00:00.000Z',
  experiments: [
    {
      ...where,
      name: where.experimentName,
      protocol: STUDY_ID,
      protocolTitle: authorityStudy.title,
      datasetId: 1,
      items: 9,
      status: 'finished',
      labels: ['GPT judge'],
      simulated: false,
      recorded: false,
      rows: own.rows.map((r) => ({ ...r, judge: 'GPT judge' })),
    },
  ],
  gates: evaluateGates(
    gates,
    own.gates.map((g) => ({ ...g, ...where })),
  ),
  words: { [STUDY_ID]: hooks.text },
};

function show() {
  setApi(
    new FakeApi({
      'judges.list': () => [],
      'judges.reportCard': () => CARD,
      'judges.gates': () => ({ settings: {}, gates }),
    }),
  );
  render(<ReportCardPage query={{ model: 'openai:gpt-4.1-mini' }} />);
}

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

describe('a study’s gate and measure on the report card page', () => {
  it('shows the declared gate failing and the measure in English', async () => {
    show();
    const gate = await screen.findByTestId(`gate-${CUE_GATE.id}`);
    expect(within(gate).getByTestId('gate-status').textContent).toBe('fail');
    expect(gate.textContent).toContain('Authority-cue shift');
    expect(gate.textContent).toContain('probe: authority cue');
    expect(screen.getByTestId('card-row').textContent).toContain('Verdicts moved by the authority cue');
  });

  it('speaks 中文 from the card’s words alone', async () => {
    await i18next.changeLanguage('zh');
    show();
    const gate = await screen.findByTestId(`gate-${CUE_GATE.id}`);
    expect(gate.textContent).toContain('权威暗示偏移');
    expect(gate.textContent).toContain('探针：权威暗示');
    expect(gate.textContent).toContain('测试研究默认值');
    expect(screen.getByTestId('card-row').textContent).toContain('被权威暗示改变的判决');
    expect(screen.getByTestId('card-experiment').textContent).toContain('权威暗示探针（仅测试）');
  });
});
