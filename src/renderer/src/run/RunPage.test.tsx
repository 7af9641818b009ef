import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { readFileBytes } from '../api/base64';
import { describe, expect, it, vi } from 'vitest';
import { setApi } from '../api';
import { ApiError } from '../api/errors';
import { i18next } from '../i18n';
import '../protocols';
import { FakeApi, experimentDetail, experimentSummary, failedCall, phase, progress } from '../test/fake-api';
import { useAppInfo } from '../stores/datasets';
import { RunPage } from './RunPage';
import { openSetupEditorOn } from './SetupEditor';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach();

function renderRun(api: FakeApi) {
  setApi(api);
  render(<RunPage experimentId={7} />);
}

describe('Run view', () => {
  it('shows a row per protocol stage, in order, and no Translation row a protocol does not have (issue 20 item 6)', async () => {
    const p = progress({
      status: 'finished',
      phase: 'judge',
      stages: ['generate', 'calibrate', 'judge'],
      phases: {
        generate: phase({ total: 24, done: 24 }),
        calibrate: phase({ total: 60, done: 58, failed: 2 }),
        judge: phase({ total: 240, done: 239, failed: 1 }),
      },
      judges: { strong: phase({ total: 150, done: 150 }), weak: phase({ total: 150, done: 147, failed: 3 }) },
      failuresByReason: { unparseable: 3 },
    });
    renderRun(new FakeApi({ 'experiments.get': () => experimentDetail(), 'experiments.progress': () => p }));
    await screen.findByTestId('run-phase-generate');
    const rows = [...document.querySelectorAll('[data-testid^="run-phase-"]')].map((r) => [
      r.getAttribute('data-testid'),
      r.querySelector('.phase-row__label')!.textContent,
      r.querySelector('.phase-row__count')!.textContent,
    ]);
    expect(rows).toEqual([
      ['run-phase-generate', 'Generating answers', '24 of 24'],
      ['run-phase-calibrate', 'Calibration probes', '58 of 60'],
      ['run-phase-judge', 'Judging', '239 of 240'],
    ]);
    expect(screen.queryByTestId('run-phase-transform')).toBeNull();
    // The stage rows' failures, the judges' and the retry button's are the same 3 calls.
    const judges = screen.getAllByTestId('run-judge').map((r) => r.getAttribute('data-total'));
    expect(judges).toEqual(['150', '150']);
    expect(screen.getByTestId('run-retry').textContent).toContain('3');
    await i18next.changeLanguage('zh');
    await waitFor(() => expect(screen.getByTestId('run-phase-generate').textContent).toContain('生成回答'));
    expect(screen.getByTestId('run-phase-calibrate').textContent).toContain('校准探针');
    await i18next.changeLanguage('en');
  });

  it('starts from the stored progress and follows run.progress events for its own experiment', async () => {
    const api = new FakeApi({
      'experiments.get': () => experimentDetail(),
      'experiments.progress': () => progress(),
      'experiments.pause': () => progress({ status: 'paused' }),
    });
    renderRun(api);
    const transform = await screen.findByTestId('run-phase-transform');
    expect(transform.textContent).toContain('0 of 6');
    expect(screen.getByTestId('run-status').textContent).toContain('running');

    act(() =>
      api.emit(
        'run.progress',
        progress({
          phase: 'judge',
          phases: {
            transform: phase({ total: 6, done: 6, cacheHits: 2 }),
            judge: phase({ total: 48, done: 12, inFlight: 4, pending: 32 }),
          },
          judges: { 'gpt-4.1-mini': phase({ total: 48, done: 12 }) },
          callsPerMinute: 42.4,
          etaSeconds: 3 * 60 + 20,
          costUsd: 0.0123,
          updatedAt: '2025-01-02T03:05:00.000Z',
        }),
      ),
    );
    expect(screen.getByTestId('run-phase-transform').textContent).toContain('6 of 6');
    expect(screen.getByTestId('run-phase-transform').textContent).toContain('2 from cache');
    expect(screen.getByTestId('run-phase-judge').textContent).toContain('12 of 48');
    expect(screen.getByTestId('run-judge').textContent).toContain('gpt-4.1-mini');
    expect(screen.getByTestId('run-rate').textContent).toBe('42');
    expect(screen.getByTestId('run-eta').textContent).toBe('3 minutes');
    expect(screen.getByTestId('run-spend').textContent).toBe('$0.0123');

    // Another experiment's progress is not ours.
    act(() => api.emit('run.progress', progress({ experimentId: 8, status: 'finished' })));
    expect(screen.getByTestId('run-status').textContent).toContain('running');

    fireEvent.click(screen.getByTestId('run-pause'));
    await waitFor(() => expect(screen.getByTestId('run-status').textContent).toContain('paused'));
    expect(screen.getByTestId('run-resume')).toBeTruthy();
    expect(api.calls.find((c) => c.method === 'experiments.pause')!.params).toEqual({ experimentId: 7 });
  });

  it('names failure kinds in 中文 in the Chinese UI', async () => {
    await act(() => i18next.changeLanguage('zh'));
    try {
      renderRun(
        new FakeApi({
          'experiments.get': () => experimentDetail({ status: 'finished' }),
          'experiments.progress': () =>
            progress({ status: 'finished', failuresByReason: { unparseable: 3, rate_limited: 1 } }),
        }),
      );
      const failures = await screen.findByTestId('run-failures');
      expect(failures.textContent).toContain('回答不可用（不是要求的格式）');
      expect(failures.textContent).toContain('触发速率限制');
      expect(failures.textContent).not.toContain('unparseable');
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });

  it('shows provider batches with their state and submission time in the UI language', async () => {
    const batches = [
      {
        id: 1,
        provider: 'openai-batch',
        model: 'gpt-4.1-mini',
        remoteId: 'batch_abc',
        status: 'open',
        remoteStatus: 'in_progress',
        requests: 48,
        finished: 12,
        createdAt: '2026-12-01T02:57:58.000Z',
      },
      {
        id: 2,
        provider: 'openai-batch',
        model: 'gpt-4.1-mini',
        remoteId: 'batch_def',
        status: 'ended',
        remoteStatus: 'ended',
        requests: 6,
        finished: 6,
        createdAt: '2026-12-01T02:50:00.000Z',
      },
    ];
    const api = () =>
      new FakeApi({
        'experiments.get': () => experimentDetail(),
        'experiments.progress': () => progress({ batches }),
      });
    const cells = async () => {
      const rows = await screen.findAllByTestId('run-batch');
      return rows.map((r) => [...r.querySelectorAll('td')].slice(4).map((td) => td.textContent));
    };
    renderRun(api());
    const when = (iso: string, locale: string) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
    expect(await cells()).toEqual([
      ['open (provider: in progress)', when(batches[0].createdAt, 'en')],
      ['ended', when(batches[1].createdAt, 'en')],
    ]);
    cleanup();
    await act(() => i18next.changeLanguage('zh'));
    try {
      renderRun(api());
      const zh = await cells();
      expect(zh).toEqual([
        ['进行中（服务商：处理中）', when(batches[0].createdAt, 'zh-CN')],
        ['已结束', when(batches[1].createdAt, 'zh-CN')],
      ]);
      // A Chinese date reads 2026年12月1日, not the US 12/1/2026.
      expect(zh[0][1]).toMatch(/2026年12月1日/);
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });

  it('shows paused lanes and failures by reason, with raw answers as literal text', async () => {
    const raw = '<img src=x onerror="alert(1)"><b>not json</b>';
    const translation = '{"instruction": "指令", "output_1": "<i>cut';
    const api = new FakeApi({
      'experiments.get': () => experimentDetail({ status: 'finished' }),
      'experiments.progress': () =>
        progress({
          status: 'finished',
          failuresByReason: { 'unparseable answer': 1, 'HTTP 400: context too long': 2 },
          pausedLanes: [
            {
              endpoint: 'openai:https://api.openai.com/v1',
              model: 'gpt-4.1',
              kind: 'auth',
              reason: 'The API key was rejected.',
            },
          ],
        }),
      'experiments.failures': () => ({
        rows: [
          failedCall({
            stage: 'transform',
            judge: null,
            sourceId: 'X-002',
            itemId: 2,
            language: 'ZH',
            order: null,
            kind: 'transform',
            reason: 'HTTP 400: context too long',
            rawText: translation,
            attempts: 1,
          }),
          failedCall({ rawText: raw }),
        ],
      }),
    });
    renderRun(api);
    const failures = await screen.findByTestId('run-failures');
    expect(failures.textContent).toContain('HTTP 400: context too long');
    expect(screen.getByTestId('paused-lanes').textContent).toContain('The API key was rejected.');
    expect(screen.getByTestId('run-retry').textContent).toBe('Retry 3 failed calls');

    fireEvent.click(screen.getByTestId('show-failed'));
    await screen.findAllByTestId('failed-raw');
    const answers = screen.getAllByTestId('failed-answer');
    expect(answers).toHaveLength(2);
    const [transform, verdict] = answers.map((a) => a.textContent ?? '');
    // Grouped by stage and by who made the call (a judge, or the stage's other role).
    const groups = screen.getAllByTestId('failure-group').map((g) => [g.dataset.stage, g.dataset.who]);
    expect(groups).toEqual([
      ['transform', 'transform'],
      ['judge', 'gpt-4.1-mini'],
    ]);
    expect(transform).toContain('X-002 · ZH');
    expect(verdict).toContain('X-001 · EN · orig');
    expect(screen.getAllByTestId('failed-raw').map((p) => p.textContent)).toEqual([translation, raw]);
    expect(failures.querySelector('img')).toBeNull();
    expect(failures.querySelector('b')).toBeNull();
    expect(failures.querySelector('i')).toBeNull();
    expect(api.calls.find((c) => c.method === 'experiments.failures')!.params).toEqual({ experimentId: 7 });
    expect(api.calls.some((c) => c.method === 'experiments.protocolView')).toBe(false);
  });

  it('exports everything and lists the written files', async () => {
    const api = new FakeApi({
      'experiments.get': () => experimentDetail({ status: 'finished' }),
      'experiments.progress': () => progress({ status: 'finished' }),
      'experiments.export': () => ({ dir: '/data/exports/run 1', files: ['metrics.json', 'judgments.csv'] }),
    });
    renderRun(api);
    fireEvent.click(await screen.findByTestId('export-all'));
    const result = await screen.findByTestId('export-result');
    expect(result.textContent).toContain('/data/exports/run 1');
    expect(result.textContent).toContain('judgments.csv');
    expect(screen.getByTestId('run-results').getAttribute('href')).toBe('#/experiments/7/results');
    expect(screen.getByTestId('run-variants').getAttribute('href')).toBe('#/experiments/7/variants');
  });

  it('on desktop, asks for a folder, exports there, and offers to open it', async () => {
    useAppInfo.setState({ info: { version: '0', dataDir: '/d', door: 'electron', samples: [] } as never });
    const opened: string[] = [];
    const desktop = {
      chooseFolder: vi.fn(async () => '/home/me/papers/run 1'),
      openFolder: vi.fn(async (p: string) => {
        opened.push(p);
        return null;
      }),
    };
    (globalThis as { desktop?: unknown }).desktop = desktop;
    try {
      const api = new FakeApi({
        'experiments.get': () => experimentDetail({ status: 'finished' }),
        'experiments.progress': () => progress({ status: 'finished' }),
        // Verdicts exist: no "export anyway?" question first.
        'experiments.results': () => ({
          protocol: 'plain',
          counts: { ok: 5, failed: 0, planned: 5, pending: 0 },
        }),
        'experiments.export': (p) => ({ dir: (p as { outDir: string }).outDir, files: ['metrics.json'] }),
      });
      renderRun(api);
      expect((await screen.findByTestId('export-intro')).textContent).toContain('folder');
      fireEvent.click(await screen.findByTestId('export-all'));
      await screen.findByTestId('export-result');
      expect(desktop.chooseFolder).toHaveBeenCalledTimes(1);
      expect(api.calls.find((c) => c.method === 'experiments.export')!.params).toMatchObject({
        outDir: '/home/me/papers/run 1',
      });
      fireEvent.click(screen.getByTestId('open-export-folder'));
      await waitFor(() => expect(opened).toEqual(['/home/me/papers/run 1']));

      // Cancelling the picker writes nothing.
      desktop.chooseFolder.mockResolvedValueOnce(null as never);
      const exports = api.calls.filter((c) => c.method === 'experiments.export').length;
      fireEvent.click(screen.getByTestId('export-all'));
      await waitFor(() => expect(desktop.chooseFolder).toHaveBeenCalledTimes(2));
      expect(api.calls.filter((c) => c.method === 'experiments.export').length).toBe(exports);
    } finally {
      delete (globalThis as { desktop?: unknown }).desktop;
      useAppInfo.setState({ info: null } as never);
    }
  });

  it('in the web door, downloads one zip instead of writing a folder on the server', async () => {
    useAppInfo.setState({ info: { version: '0', dataDir: '/d', door: 'web', samples: [] } as never });
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    URL.createObjectURL = () => 'blob:zip';
    URL.revokeObjectURL = () => {};
    const api = new FakeApi({
      'experiments.get': () => experimentDetail({ status: 'finished' }),
      'experiments.progress': () => progress({ status: 'finished' }),
      'experiments.exportZip': () => ({
        fileName: 'run 1.zip',
        mime: 'application/zip',
        contentBase64: btoa('PK'),
      }),
    });
    renderRun(api);
    // The box says what happens here: a zip download, not a folder (issue 26 item 8).
    const intro = (await screen.findByTestId('export-intro')).textContent ?? '';
    expect(intro).toContain('zip');
    expect(intro).not.toContain('folder');
    fireEvent.click(await screen.findByTestId('export-all'));
    const note = await screen.findByTestId('export-downloaded');
    expect(note.textContent).toContain('Downloaded run 1.zip');
    expect(clicked).toEqual(['run 1.zip']);
    expect(api.calls.some((c) => c.method === 'experiments.export')).toBe(false);
    click.mockRestore();
    useAppInfo.setState({ info: null });
  });

  it('asks before exporting an experiment without verdicts', async () => {
    const api = new FakeApi({
      'experiments.get': () => experimentDetail({ status: 'finished' }),
      'experiments.progress': () => progress({ status: 'finished' }),
      'experiments.results': () => ({
        protocol: 'unplugged',
        metrics: {},
        tables: [],
        flagged: [],
        counts: { planned: 10, ok: 0, failed: 0, pending: 10 },
      }),
      'experiments.export': () => ({ dir: '/data/exports/run 1', files: ['metrics.json'] }),
    });
    renderRun(api);
    fireEvent.click(await screen.findByTestId('export-all'));
    const warning = await screen.findByTestId('export-empty-warning');
    expect(warning.textContent).toContain('no verdicts yet');
    expect(api.calls.some((c) => c.method === 'experiments.export')).toBe(false);
    fireEvent.click(screen.getByTestId('export-anyway'));
    await screen.findByTestId('export-result');
    expect(api.calls.filter((c) => c.method === 'experiments.export')).toHaveLength(1);
  });

  it('duplicates the experiment and opens the copy, and saves its config for the CLI', async () => {
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    URL.createObjectURL = () => 'blob:json';
    URL.revokeObjectURL = () => {};
    const api = new FakeApi({
      'experiments.get': () => experimentDetail({ status: 'finished' }),
      'experiments.progress': () => progress({ status: 'finished' }),
      'experiments.duplicate': () => experimentSummary({ id: 8, name: 'run 1 copy', status: 'draft' }),
      'experiments.cliConfig': () => ({
        fileName: 'run 1.json',
        mime: 'application/json',
        contentBase64: btoa('{}'),
      }),
    });
    renderRun(api);
    fireEvent.click(await screen.findByTestId('run-save-config'));
    await waitFor(() => expect(clicked).toEqual(['run 1.json']));
    // The download is handed over before the save's busy state clears; a click on the
    // still-disabled button would be dropped (this raced on a loaded CI machine).
    await waitFor(() =>
      expect((screen.getByTestId('run-duplicate') as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByTestId('run-duplicate'));
    await waitFor(() => expect(window.location.hash).toBe('#/experiments/8'));
    expect(api.calls.find((c) => c.method === 'experiments.duplicate')!.params).toEqual({ experimentId: 7 });
    click.mockRestore();
  });
});

// Issue 38 item 9: a duplicate (a draft, nothing planned) can be changed before it starts.
describe('Editing the setup of an experiment that has not started', () => {
  const draft = (over: Record<string, unknown> = {}) =>
    experimentDetail({
      status: 'draft',
      counts: { planned: 0, done: 0, failed: 0 },
      config: { name: 'pilot copy', protocol: 'judge-ls', dataset: 1, limit: 5, judges: [] },
      ...over,
    });

  it('opens the stored config, sends the edited one and shows the saved setup', async () => {
    let stored = draft();
    const api = new FakeApi({
      'experiments.get': () => stored,
      'experiments.progress': () => progress({ status: 'draft' }),
      'experiments.editSetup': ({ config }) => {
        stored = draft({ name: (config as { name: string }).name, config });
        return stored;
      },
    });
    renderRun(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit setup' }));
    const box = screen.getByTestId('setup-editor-text') as HTMLTextAreaElement;
    expect(JSON.parse(box.value)).toEqual(stored.config);
    // Not JSON: said so, nothing sent.
    fireEvent.change(box, { target: { value: '{ "name": ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save setup' }));
    expect(screen.getByTestId('setup-editor-error').textContent).toMatch(/Not valid JSON/);
    expect(api.calls.some((c) => c.method === 'experiments.editSetup')).toBe(false);
    const edited = { name: 'pilot, 10 items', protocol: 'judge-ls', dataset: 1, limit: 10, judges: [] };
    fireEvent.change(box, { target: { value: JSON.stringify(edited) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save setup' }));
    await waitFor(() => expect(screen.queryByTestId('setup-editor')).toBeNull());
    expect(api.calls.find((c) => c.method === 'experiments.editSetup')?.params).toEqual({
      experimentId: 7,
      config: edited,
    });
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('pilot, 10 items'),
    );
  });

  it('opens with the editor right after Duplicate made the copy, and only then', async () => {
    const api = new FakeApi({
      'experiments.get': () => draft(),
      'experiments.progress': () => progress({ status: 'draft' }),
    });
    openSetupEditorOn(7);
    renderRun(api);
    expect(
      JSON.parse(((await screen.findByTestId('setup-editor-text')) as HTMLTextAreaElement).value),
    ).toEqual(draft().config);
    cleanup();
    renderRun(api);
    await screen.findByTestId('run-edit-setup');
    expect(screen.queryByTestId('setup-editor')).toBeNull();
  });

  it('shows the core refusal, and offers no edit once anything is planned, in 中文 too', async () => {
    const api = new FakeApi({
      'experiments.get': () => draft(),
      'experiments.progress': () => progress({ status: 'draft' }),
      'experiments.editSetup': () => {
        throw new ApiError('conflict', 'An experiment named "pilot" exists; choose another name.');
      },
    });
    renderRun(api);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit setup' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save setup' }));
    await waitFor(() =>
      expect(screen.getByTestId('setup-editor-error').textContent).toContain('named "pilot" exists'),
    );
    cleanup();
    renderRun(
      new FakeApi({
        'experiments.get': () => draft({ counts: { planned: 54, done: 0, failed: 0 } }),
        'experiments.progress': () => progress({ status: 'draft' }),
      }),
    );
    await screen.findByTestId('run-status');
    expect(screen.queryByTestId('run-edit-setup')).toBeNull();
    cleanup();
    await i18next.changeLanguage('zh');
    renderRun(
      new FakeApi({
        'experiments.get': () => draft(),
        'experiments.progress': () => progress({ status: 'draft' }),
      }),
    );
    expect((await screen.findByTestId('run-edit-setup')).textContent).toBe('编辑设置');
    await i18next.changeLanguage('en');
  });
});

// Issue 39: the cluster round trip (judge-lab batch export/import) from the run page.
describe('Batch files for a cluster', () => {
  const finished = {
    'experiments.get': () => experimentDetail({ status: 'paused' }),
    'experiments.progress': () => progress({ status: 'paused' }),
  };

  it('downloads requests.jsonl from batchExport and reads an output file back, counts and lines as text, in English and 中文', async () => {
    const downloads: { name: string; blob: Blob }[] = [];
    let lastBlob: Blob | undefined;
    URL.createObjectURL = (b: Blob | MediaSource) => ((lastBlob = b as Blob), 'blob:jsonl');
    URL.revokeObjectURL = () => {};
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push({ name: this.download, blob: lastBlob! });
    });
    const lines = '{"custom_id":"jl-e7-r1-aa","method":"POST","url":"/v1/chat/completions","body":{}}\n';
    const api = new FakeApi({
      ...finished,
      'experiments.batchExport': () => ({
        text: lines,
        requests: 1,
        stages: ['judge'],
        models: { 'Qwen/Qwen2.5-7B-Instruct': 1 },
        otherModels: 0,
        inFlight: 0,
        skipped: [],
      }),
      'experiments.batchImport': ({ file }) => ({
        file,
        lines: 5,
        stored: 2,
        kept: 1,
        askAgain: 0,
        failed: { count: 1, first: [{ line: 4, customId: 'jl-e7-r4-dd', reason: '<b>server error</b>' }] },
        malformed: { count: 1, first: [{ line: 5, problem: 'not JSON (cut short?)' }] },
        open: 2,
      }),
    });
    renderRun(api);
    fireEvent.click(await screen.findByTestId('cluster-export'));
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['requests.jsonl']));
    expect(new TextDecoder().decode(await readFileBytes(downloads[0].blob))).toBe(lines);
    expect(api.calls.find((c) => c.method === 'experiments.batchExport')!.params).toEqual({
      experimentId: 7,
    });
    expect(screen.getByTestId('cluster-export-result').textContent).toBe(
      'requests.jsonl downloaded: 1 request (Qwen/Qwen2.5-7B-Instruct (1)).',
    );

    const output = '{"id":"x","custom_id":"jl-e7-r1-aa","response":{}}\n';
    fireEvent.change(screen.getByTestId('cluster-import-file'), {
      target: { files: [new File([output], 'results.jsonl')] },
    });
    const report = await screen.findByTestId('cluster-import-result');
    expect(api.calls.find((c) => c.method === 'experiments.batchImport')!.params).toEqual({
      experimentId: 7,
      file: 'results.jsonl',
      text: output,
    });
    const count = (k: string) => screen.getByTestId(`cluster-count-${k}`).textContent;
    expect(count('stored')).toBe('Answers stored2');
    expect(count('kept')).toBe('Kept (already answered)1');
    expect(count('failed')).toBe('Failed1');
    expect(count('malformed')).toBe('Lines not readable1');
    // A model's or server's words stay text: no element is made of them.
    const failed = screen.getByTestId('cluster-import-failed');
    expect(failed.textContent).toBe('results.jsonl, line 4: <b>server error</b>');
    expect(failed.querySelector('b')).toBeNull();
    expect(screen.getByTestId('cluster-import-malformed').textContent).toBe(
      'results.jsonl, line 5: not JSON (cut short?)',
    );
    expect(report.textContent).toContain('results.jsonl: 5 lines read.');

    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByTestId('cluster-count-stored').textContent).toBe('已保存的答案2');
    expect(screen.getByTestId('cluster-import-failed').textContent).toBe(
      'results.jsonl，第 4 行：<b>server error</b>',
    );
    expect(screen.getByRole('button', { name: '导出请求（用于集群）' })).toBeTruthy();
    await act(() => i18next.changeLanguage('en'));
    click.mockRestore();
  });

  it('shows a refused file as refused, naming the file, line and field, with nothing stored', async () => {
    const message = 'results.jsonl:3: field "custom_id": request 9 was not exported for experiment 7';
    const api = new FakeApi({
      ...finished,
      'experiments.batchImport': () => {
        throw new ApiError('invalid_input', message, [
          {
            file: 'results.jsonl',
            field: 'custom_id',
            message: 'line 3: request 9 was not exported for experiment 7',
          },
        ]);
      },
    });
    renderRun(api);
    fireEvent.change(await screen.findByTestId('cluster-import-file'), {
      target: { files: [new File(['{}\n'], 'results.jsonl')] },
    });
    const panel = await within(screen.getByTestId('cluster-files')).findByRole('alert');
    expect(panel.textContent).toContain('results.jsonl was refused: nothing was stored');
    expect(panel.textContent).toContain(message);
    expect(panel.textContent).toContain('custom_id');
    expect(panel.textContent).toContain('line 3');
    expect(screen.queryByTestId('cluster-import-result')).toBeNull();
  });
});
