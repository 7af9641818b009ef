// @vitest-environment jsdom
// The reference-sensitivity wizard step: template editors that start from the core's defaults,
// a live preview the core renders from the current templates, and an answers file chosen in the
// app, sent as its text in the config.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../api';
import '../../i18n';
import { buildConfig, initialDraft } from '../../lib/experiment-config';
import { useWizard } from '../../stores/wizard';
import { FakeApi } from '../../test/fake-api';
import '../index';
import { GeneratorsStep } from './GeneratorsStep';
import { unmountAndDropApiAfterEach } from '../../test/dom';

const DEFAULTS = {
  generateSystem: 'Answer in {{language_name}}.',
  generateUser: '{{question}}',
  judgeSystem: 'Grade it.',
  judgeUserNR: 'Q {{question}} A {{answer}}',
  judgeUserRV: 'Q {{question}} R {{reference}} A {{answer}}',
  judgeUserRC: 'Q {{question}} R {{reference}} A {{answer}} compare',
};

let api: FakeApi;
beforeEach(() => {
  api = new FakeApi({
    'protocols.defaults': () => ({ templates: DEFAULTS }),
    'experiments.previewPrompts': (p) => {
      const templates = ((p.config as { templates?: Record<string, string> }).templates ?? {}) as Record<
        string,
        string
      >;
      return {
        itemId: 1,
        sourceId: 'q-1',
        prompts: [
          { stage: 'generate', label: 'Generator g (ar)', system: 'sys', user: 'ما هي عاصمة مصر؟' },
          {
            stage: 'judge',
            label: 'Judge RV',
            system: 'Grade it.',
            user: templates.judgeUserRV ?? DEFAULTS.judgeUserRV,
          },
        ],
      };
    },
  });
  setApi(api);
  act(() =>
    useWizard.setState({
      draft: { ...initialDraft(), protocol: 'reference-sensitivity' },
      step: 'generators',
    }),
  );
});
unmountAndDropApiAfterEach();

const config = () => buildConfig(useWizard.getState().draft) as Record<string, unknown>;

describe('reference-sensitivity prompts and answers in the wizard', () => {
  it('shows the default templates, and an edit goes into the config and the live preview', async () => {
    render(<GeneratorsStep />);
    const rv = (await screen.findByTestId('refsens-template-judgeUserRV')) as HTMLTextAreaElement;
    await waitFor(() => expect(rv.value).toBe(DEFAULTS.judgeUserRV));
    expect(config().templates).toBeUndefined();
    fireEvent.change(rv, { target: { value: 'REF {{reference}} Q {{question}} A {{answer}}' } });
    expect(config().templates).toEqual({ judgeUserRV: 'REF {{reference}} Q {{question}} A {{answer}}' });
    await waitFor(
      () =>
        expect(screen.getAllByTestId('refsens-prompt-card').map((c) => c.textContent)).toContain(
          'Judge RVSystemGrade it.UserREF {{reference}} Q {{question}} A {{answer}}',
        ),
      { timeout: 3000 },
    );
    const last = api.calls.filter((c) => c.method === 'experiments.previewPrompts').at(-1)!;
    expect((last.params as { config: { templates: unknown } }).config.templates).toEqual({
      judgeUserRV: 'REF {{reference}} Q {{question}} A {{answer}}',
    });
    // The preview's texts read in their own direction.
    expect(screen.getByText('ما هي عاصمة مصر؟').getAttribute('dir')).toBe('auto');
    fireEvent.click(screen.getByText('Back to the default'));
    expect(config().templates).toBeUndefined();
  });

  it('sends a chosen answers file as its name and text', async () => {
    render(<GeneratorsStep />);
    const input = screen.getByTestId('refsens-answers-file') as HTMLInputElement;
    const text = 'item_id,generator,answer\nq-1,mine,Cairo\n';
    fireEvent.change(input, { target: { files: [new File([text], 'mine.csv', { type: 'text/csv' })] } });
    await waitFor(() => expect(config().answers).toEqual({ fileName: 'mine.csv', text }));
    expect(screen.getByTestId('refsens-answers-name').textContent).toBe('mine.csv');
    fireEvent.click(screen.getByText('Remove'));
    expect(config().answers).toBeUndefined();
  });
});
