import { formatDateTime } from '../lib/format';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type {
  PreregistrationLock,
  PreregistrationPlan,
  PreregistrationView,
} from '../../../shared/paper/preregistration';
import { getApi, setApi } from '../api';
import { ApiError } from '../api/errors';
import '../i18n';
import '../protocols';
import { FakeApi } from '../test/fake-api';
import { PreregNote } from './PreregNote';
import { PreregPanel } from './PreregPanel';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

const COMPARISONS = [
  { id: 'accuracy_change:EN-ZH', label: 'Accuracy change EN → ZH' },
  { id: 'accuracy_change:EN-FR', label: 'Accuracy change EN → FR' },
];

function lockOf(version: number, plan: PreregistrationPlan, reason: string | null): PreregistrationLock {
  return {
    version,
    plan,
    snapshot: {
      protocol: 'p',
      config: {},
      items: 40,
      itemsSha256: 'ab'.repeat(32),
      judges: ['mock / judge-a'],
      answersAtLock: version === 1 ? 0 : 12,
      editedAtLock: 0,
      comparisons: [],
    },
    reason,
    lockedAt: `2026-01-0${version}T10:00:00.000Z`,
    sha256: String(version).repeat(64),
  };
}

/** Answers as the core's door does: the view, and locks that grow only with a reason. */
function coreLike(opts: { refuse?: ApiError; answersStored?: number } = {}) {
  const locks: PreregistrationLock[] = [];
  const stored = opts.answersStored ?? 0;
  const view = (): PreregistrationView => ({
    experimentId: 7,
    locks: [...locks],
    active: locks.at(-1) ?? null,
    deviations: locks.slice(1).map((l) => ({
      kind: 'amended' as const,
      text: `Version ${l.version} superseded …`,
      params: { version: l.version, at: l.lockedAt, answers: 12, reason: l.reason ?? '' },
    })),
    comparisons: COMPARISONS,
    // As the core decides it: the first lock came after `stored` answers.
    afterData: locks.length && stored > 0 ? { answers: stored, lockedAt: locks[0].lockedAt } : null,
    answersStored: stored,
  });
  const api = new FakeApi({
    'experiments.preregistration': ({ lang }) => ({ ...view(), markdown: `# doc ${lang ?? 'en'}` }),
    'experiments.preregister': ({ plan, reason }) => {
      if (opts.refuse) throw opts.refuse;
      const p = plan as unknown as PreregistrationPlan;
      locks.push(lockOf(locks.length + 1, { ...p, primary: p.primary ?? p.confirmatory[0] }, reason ?? null));
      return view();
    },
  });
  setApi(api);
  return api;
}

const fill = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

/**
 * Renders the panel and submits the smallest plan the form takes: one confirmatory comparison
 * (EN → ZH) and the two free-text fields, in the page's language.
 */
async function submitSmallestPlan(words: { exclusions: string; stopping: string } = ENGLISH_PLAN) {
  const rendered = render(<PreregPanel experimentId={7} protocol="unplugged" />);
  await screen.findByTestId('prereg-form');
  fireEvent.click(screen.getByLabelText(/Accuracy change EN → ZH/));
  fill('prereg-exclusions', words.exclusions);
  fill('prereg-stopping', words.stopping);
  fireEvent.click(screen.getByTestId('prereg-submit'));
  return rendered;
}
const ENGLISH_PLAN = { exclusions: 'none', stopping: 'all planned items' };

describe('Preregistration panel', () => {
  it('names every field left wrong before it asks the core', async () => {
    const api = coreLike();
    render(<PreregPanel experimentId={7} protocol="unplugged" />);
    await screen.findByTestId('prereg-form');
    fill('prereg-alpha', '0.9');
    fireEvent.click(screen.getByTestId('prereg-submit'));
    for (const f of ['confirmatory', 'alpha', 'exclusions', 'stopping'])
      expect(screen.getByTestId(`prereg-error-${f}`)).toBeTruthy();
    expect(screen.getByTestId('prereg-error-alpha').textContent).toBe(
      'Give a number above 0 and at most 0.5.',
    );
    expect(screen.queryByTestId('prereg-error-reason')).toBeNull();
    expect(api.calls.some((c) => c.method === 'experiments.preregister')).toBe(false);
  });

  it("shows the core's refusal on the field it names", async () => {
    coreLike({
      refuse: new ApiError('invalid_input', 'plan.confirmatory[0]: "x" is not a comparison', [
        { file: 'plan', field: 'plan.confirmatory[0]', message: 'not a comparison of the power plan' },
      ]),
    });
    await submitSmallestPlan();
    const err = await screen.findByTestId('prereg-error-confirmatory');
    expect(err.textContent).toBe('Confirmatory comparisons: not a comparison of the power plan');
    expect(screen.getByTestId('prereg-core-error').textContent).toContain('is not a comparison');
    expect(screen.queryByTestId('prereg-lock')).toBeNull();
  });

  it("shows a keyed refusal in Chinese on the 中文 page, not the core's English", async () => {
    await i18next.changeLanguage('zh');
    // As the door hands it over (a plain payload: contextBridge drops the class).
    const payload = {
      code: 'invalid_input',
      message:
        'plan.confirmatory[0]: "accuracy_change:EN-ZH" is not a comparison of this experiment\'s power plan (have: flip_rate:EN-ZH)',
      issues: [
        {
          file: 'plan',
          field: 'plan.confirmatory[0]',
          message: 'not a comparison of the power plan',
          refusal: { key: 'prereg.notInPowerPlan' },
        },
      ],
      refusal: {
        key: 'prereg.unknownComparison',
        params: { field: 'plan.confirmatory[0]', id: 'accuracy_change:EN-ZH', have: 'flip_rate:EN-ZH' },
      },
    };
    coreLike({ refuse: payload as unknown as ApiError });
    await submitSmallestPlan({ exclusions: '无', stopping: '全部条目' });
    const err = await screen.findByTestId('prereg-error-confirmatory');
    expect(err.textContent).toBe('验证性比较：不是功效计划中的比较');
    const panel = screen.getByTestId('prereg-core-error');
    expect(panel.textContent).toContain(
      'plan.confirmatory[0]：“accuracy_change:EN-ZH”不是本实验功效计划中的比较（现有：flip_rate:EN-ZH）',
    );
    expect(panel.textContent).not.toContain('is not a comparison');
    expect(panel.textContent).not.toContain('not a comparison of the power plan');
  });

  it('locks a plan, shows it read-only, and supersedes it only with a reason', async () => {
    const api = coreLike();
    render(<PreregPanel experimentId={7} protocol="unplugged" />);
    await screen.findByTestId('prereg-form');
    fireEvent.click(screen.getByLabelText(/Accuracy change EN → FR/));
    fireEvent.click(screen.getByLabelText(/Accuracy change EN → ZH/));
    fill('prereg-primary', 'accuracy_change:EN-ZH');
    fill('prereg-hypotheses', '<b>ZH</b> drops more than FR');
    fill('prereg-correction', 'bonferroni');
    fill('prereg-exclusions', 'flagged items out');
    fill('prereg-stopping', 'all planned items');
    fireEvent.click(screen.getByTestId('prereg-submit'));
    const lock = await screen.findByTestId('prereg-lock');
    expect(api.calls.find((c) => c.method === 'experiments.preregister')?.params).toEqual({
      experimentId: 7,
      plan: {
        confirmatory: ['accuracy_change:EN-FR', 'accuracy_change:EN-ZH'],
        primary: 'accuracy_change:EN-ZH',
        hypotheses: '<b>ZH</b> drops more than FR',
        alpha: 0.05,
        correction: 'bonferroni',
        exclusions: 'flagged items out',
        stopping: 'all planned items',
      },
    });
    expect(within(lock).getByTestId('prereg-sha256').textContent).toBe('1'.repeat(64));
    // The lock time in the UI language's format; the stored ISO string stays in the <time> element.
    const lockedAt = within(lock).getByTestId('prereg-locked-at');
    expect(lockedAt.textContent).toBe(formatDateTime('2026-01-01T10:00:00.000Z', 'en'));
    expect(lockedAt.querySelector('time')?.getAttribute('dateTime')).toBe('2026-01-01T10:00:00.000Z');
    // User text stays text: the tags are shown, not made into markup.
    expect(lock.textContent).toContain('<b>ZH</b> drops more than FR');
    expect(lock.querySelector('b')).toBeNull();
    expect(within(lock).getByTestId('prereg-lock-confirmatory').textContent).toContain('(primary)');
    expect(screen.getByTestId('prereg-deviations').textContent).toContain('No deviation');
    expect(screen.queryByTestId('prereg-form')).toBeNull();

    fireEvent.click(screen.getByTestId('prereg-supersede'));
    fireEvent.click(screen.getByTestId('prereg-submit'));
    expect(screen.getByTestId('prereg-error-reason').textContent).toBe(
      'Say why the new version supersedes the plan in force.',
    );
    fill('prereg-reason', 'FR data turned out to be machine-translated');
    fireEvent.click(screen.getByTestId('prereg-submit'));
    await waitFor(() => expect(screen.getByTestId('prereg-lock').getAttribute('data-version')).toBe('2'));
    const calls = api.calls.filter((c) => c.method === 'experiments.preregister');
    expect(calls[1].params).toMatchObject({ reason: 'FR data turned out to be machine-translated' });
    expect(screen.getByTestId('prereg-earlier').textContent).toContain('1'.repeat(64));
    const dev = screen.getByTestId('prereg-deviations');
    expect(dev.querySelector('[data-kind="amended"]')?.textContent).toBe(
      'Version 2 superseded version 1 at 2026-01-02T10:00:00.000Z (12 answers collected by then): FR data turned out to be machine-translated',
    );

    // 中文: the panel and the deviation speak Chinese; only ids, hashes and user text stay as typed.
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByTestId('prereg-panel').querySelector('h2')?.textContent).toBe('预注册');
    expect(screen.getByTestId('prereg-deviations').querySelector('li')?.textContent).toBe(
      '第 2 版于 2026-01-02T10:00:00.000Z 取代了前一版（当时已收集 12 个回答）：FR data turned out to be machine-translated',
    );
    expect(screen.getByTestId('prereg-download').textContent).toBe('下载 preregistration.md');
  });
});

describe('Comparison labels', () => {
  it("speak the page's language through the protocol's strings, the core's English the fallback", async () => {
    setApi(
      new FakeApi({
        'experiments.preregistration': () => ({
          experimentId: 7,
          locks: [],
          active: null,
          deviations: [],
          comparisons: [
            {
              id: 'accuracy_change:EN-ZH',
              label: 'Accuracy change EN-ZH (per judge)',
              labelKey: 'power.accuracyChange',
              labelParams: { comparison: 'EN-ZH' },
            },
            { id: 'custom', label: 'A comparison without words of its own' },
          ],
          markdown: '',
        }),
      }),
    );
    await act(() => i18next.changeLanguage('zh'));
    render(<PreregPanel experimentId={7} protocol="judge-ls" />);
    const boxes = await screen.findByTestId('prereg-confirmatory');
    expect(boxes.textContent).toContain('准确率变化 EN-ZH（每个评审模型）');
    expect(boxes.textContent).toContain('A comparison without words of its own');
  });
});

describe('Preregistration note on the results page', () => {
  it('lists the confirmatory comparisons and the deviations, or says all is exploratory', async () => {
    coreLike();
    const { unmount } = render(<PreregNote experimentId={7} protocol="unplugged" />);
    expect((await screen.findByTestId('prereg-note')).textContent).toContain(
      'every result on this page is exploratory',
    );
    unmount();
    await getApiLock();
    render(<PreregNote experimentId={7} protocol="unplugged" />);
    const list = await screen.findByTestId('prereg-note-confirmatory');
    expect(list.textContent).toContain('Accuracy change EN → ZH');
    expect(list.textContent).toContain('(primary)');
    expect(screen.getByTestId('prereg-note').textContent).toContain('Every other comparison');
  });
});

describe('a plan locked after data collection', () => {
  it('asks to confirm before it locks, and the results note never calls it confirmatory', async () => {
    const api = coreLike({ answersStored: 360 });
    const { unmount } = await submitSmallestPlan();
    const confirm = await screen.findByTestId('prereg-after-data');
    expect(confirm.textContent).toContain('360 answers of this experiment are already stored');
    expect(confirm.textContent).toContain('registered after data collection');
    // Nothing is locked until the person confirms.
    expect(api.calls.some((c) => c.method === 'experiments.preregister')).toBe(false);
    fireEvent.click(screen.getByTestId('prereg-after-data-lock'));
    await screen.findByTestId('prereg-lock');
    expect(api.calls.filter((c) => c.method === 'experiments.preregister')).toHaveLength(1);
    unmount();

    render(<PreregNote experimentId={7} protocol="unplugged" />);
    const note = await screen.findByTestId('prereg-note');
    // The lock time in the UI language's format (issue 38 item 10), not the stored ISO string.
    expect(screen.getByTestId('prereg-note-title').textContent).toMatch(
      /^Registered after data collection \(version 1, locked Jan 1, 2026, \d+:00 [AP]M, when 360 answers were already stored\)$/,
    );
    expect(note.textContent).toContain('not confirmatory: registered after data collection');
    expect(note.textContent).not.toMatch(/Preregistered|Confirmatory:/);
  });

  it('locks at once when no answer is stored yet', async () => {
    const api = coreLike();
    await submitSmallestPlan();
    await screen.findByTestId('prereg-lock');
    expect(screen.queryByTestId('prereg-after-data')).toBeNull();
    expect(api.calls.filter((c) => c.method === 'experiments.preregister')).toHaveLength(1);
  });
});

/** Locks a plan through the API the panel uses (as another door would). */
async function getApiLock() {
  await getApi().call('experiments.preregister', {
    experimentId: 7,
    plan: {
      confirmatory: ['accuracy_change:EN-ZH'],
      alpha: 0.05,
      correction: 'holm',
      exclusions: 'none',
      stopping: 'all',
    },
  });
}
