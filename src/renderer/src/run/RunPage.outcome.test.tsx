// Issue 32 item 7: a finished run whose calls all failed is not shown as a green "finished, all
// planned calls are done" with full bars: the status says every call failed, the message gives
// the reasons, and the bars tell failed calls from answered ones (EN and 中文).
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { FakeApi, experimentDetail, phase, progress } from '../test/fake-api';
import { RunPage } from './RunPage';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

const MESSAGE =
  'Every call failed (16 of 16): there are no answers. Reasons: bad_request 16 (The provider rejected the request (HTTP 400): 400 Invalid value). Fix the cause, then send the failed calls again (Retry failed, or judge-lab run --retry-failed).';

function allRejected() {
  return progress({
    status: 'finished',
    phase: 'judge',
    stages: ['judge'],
    phases: { judge: phase({ total: 16, done: 0, failed: 16 }) },
    judges: { GPT: phase({ total: 16, done: 0, failed: 16 }) },
    failuresByReason: { bad_request: 16 },
    message: MESSAGE,
  });
}

describe('a run whose every call failed', () => {
  it('says so in its status, gives the reasons, and draws its bars as failed, not done', async () => {
    const p = allRejected();
    setApi(new FakeApi({ 'experiments.get': () => experimentDetail(), 'experiments.progress': () => p }));
    render(<RunPage experimentId={7} />);
    const status = await screen.findByTestId('run-status');
    expect(status.textContent).toBe('failed: every call failed');
    // The stored status stays "finished" (nothing is left to send); what it shows is the outcome.
    expect(status.querySelector('[data-status]')!.getAttribute('data-status')).toBe('finished');
    expect(status.querySelector('[data-status]')!.getAttribute('data-outcome')).toBe('all_failed');
    expect(document.body.textContent).not.toContain('All planned calls are done.');
    expect(document.body.textContent).toContain('Every planned call was sent and every one failed');
    expect(document.body.textContent).toContain('Reasons: bad_request 16');
    const bar = screen.getByTestId('run-phase-judge').querySelector('.split-bar')!;
    expect(bar.getAttribute('aria-label')).toContain('0 answered, 16 failed, of 16');
    expect((bar.querySelector('.split-bar__done') as HTMLElement).style.width).toBe('0%');
    expect((bar.querySelector('.split-bar__failed') as HTMLElement).style.width).toBe('100%');

    await i18next.changeLanguage('zh');
    await waitFor(() => expect(screen.getByTestId('run-status').textContent).toBe('失败：所有调用均失败'));
    expect(document.body.textContent).toContain('所有调用均失败（16 个中 16 个）：没有任何回答。原因：');
  });

  it('with most calls failed reads "finished, most calls failed"; with a few, "finished"', async () => {
    const most = progress({
      status: 'finished',
      phase: 'judge',
      stages: ['judge'],
      phases: { judge: phase({ total: 16, done: 6, failed: 10 }) },
      failuresByReason: { bad_request: 10 },
    });
    setApi(new FakeApi({ 'experiments.get': () => experimentDetail(), 'experiments.progress': () => most }));
    render(<RunPage experimentId={7} />);
    expect((await screen.findByTestId('run-status')).textContent).toBe('finished, most calls failed');
    cleanup();
    const few = { ...most, phases: { judge: phase({ total: 16, done: 15, failed: 1 }) } };
    setApi(new FakeApi({ 'experiments.get': () => experimentDetail(), 'experiments.progress': () => few }));
    render(<RunPage experimentId={7} />);
    expect((await screen.findByTestId('run-status')).textContent).toBe('finished');
  });
});
