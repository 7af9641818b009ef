// Judge-LS's judgments view (kind filter, speed), experiments.flagged and experiments.failures on a
// real 60-item Judge-LS run against the mock provider, with failed translations and verdicts.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { readFileSync, rmSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tasksOf } from '../../src/main/store/experiments';
import type { Item } from '../../src/shared/domain';
import type { FailedCallView } from '../../src/shared/experiments';
import { dropsNumbers, judgeLsResponder, type JudgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider, type MockRequest } from '../mock-provider/server';
import { tempDir } from '../helpers/tmp';
import { judgeLsRows } from '../../src/shared/protocols/judge-ls/views';

const LIMIT = 60;
const JUDGES = [
  { label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' },
  { label: 'Claude mock', provider: 'anthropic', model: 'claude-haiku-4-5' },
];
/** A verdict reason far longer than any UI shows: it must come back whole. */
const LONG_TAIL = ' because'.repeat(25_000);

let core: Core;
let mock: MockProvider;
let responder: JudgeLsResponder;
let items: Item[];
let experimentId: number;
let cleanup: () => void;
/** Its ZH translation always comes back as prose (re-asked, then failed with the raw text). */
let zhBroken: Item;
/** Its LS translation is refused with HTTP 400 (failed at once, no answer). */
let lsRefused: Item;
/** Every verdict about it carries LONG_TAIL. */
let longReasons: Item;

function field(prompt: string, tag: string): string {
  const open = `<${tag}>\n`;
  const start = prompt.indexOf(open);
  return start < 0 ? '' : prompt.slice(start + open.length, prompt.indexOf(`\n</${tag}>`, start));
}

function transformOf(req: MockRequest, item: Item, lang: 'ZH' | 'LS'): boolean {
  if (req.schemaName !== 'language_variant') return false;
  const isZh = /Rewrite the following in Simplified Chinese/.test(req.lastUser);
  return (
    isZh === (lang === 'ZH') &&
    field(req.lastUser, 'instruction') === item.instruction &&
    field(req.lastUser, 'output_1') === item.output1 &&
    field(req.lastUser, 'output_2') === item.output2
  );
}

beforeAll(async () => {
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  core = new Core({
    dataDir: tmp.dir,
    door: 'cli',
    keys: new EnvOnlyKeyStore({ MOCK_OPENAI_KEY: 'sk-test-openai', MOCK_ANTHROPIC_KEY: 'sk-ant-test' }),
    engine: { progressIntervalMs: 100 },
  });
  const { dataset } = await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  const rows = (await core.call('items.list', { datasetId: dataset.id })).slice(0, LIMIT);
  items = await Promise.all(rows.map((r) => core.call('items.get', { itemId: r.id })));
  const clean = items.filter((i) => !dropsNumbers(i));
  [zhBroken, lsRefused, longReasons] = [clean[3], clean[7], clean[11]];

  responder = judgeLsResponder(items, { failRate: 0.01 });
  mock = await startMockProvider({
    respond: (req) => {
      const answer = responder.respond(req) as Record<string, unknown>;
      if (
        req.schemaName === 'pairwise_verdict' &&
        String(answer.reason).includes(` ${longReasons.sourceId} `)
      )
        return { ...answer, reason: String(answer.reason) + LONG_TAIL };
      return answer;
    },
    faultFor: (req) => {
      if (transformOf(req, zhBroken, 'ZH')) return 'malformed';
      if (transformOf(req, lsRefused, 'LS')) return 'bad_request';
      return responder.faultFor(req);
    },
    wrapText: false,
  });
  const summary = await core.call('experiments.create', {
    config: {
      name: 'judgments-api-mock',
      protocol: 'judge-ls',
      dataset: dataset.id,
      limit: LIMIT,
      providers: {
        openai: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 32 },
        anthropic: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 32 },
      },
      transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
      judges: JUDGES,
      tieProbes: true,
      maxParseRetries: 2,
    },
  });
  experimentId = summary.id;
  const final = await core.experiments.runToEnd(experimentId);
  expect(final.status).toBe('finished');
}, 120_000);

afterAll(async () => {
  await core?.shutdown();
  await mock?.close();
  cleanup?.();
});

// Per judge: EN for every item; ZH and LS where the translation exists; tie probes need ZH.
const QUALITY_PER_JUDGE = 2 * LIMIT + 2 * (LIMIT - 1) + 2 * (LIMIT - 1);
const PROBES_PER_JUDGE = 2 * (LIMIT - 1);

describe('judgments.csv', () => {
  it('has a row for every planned verdict; those whose translation failed say so', async () => {
    const out = join(tmpdir(), `judgments-csv-${process.pid}-${Date.now()}`);
    await core.call('experiments.export', { experimentId, outDir: out });
    const rows = parse(readFileSync(join(out, 'judgments.csv'), 'utf8').replace(/^\uFEFF/, ''), {
      columns: true,
    }) as Record<string, string>[];
    rmSync(out, { recursive: true, force: true });
    // 8 verdicts per item and judge, answered or not.
    expect(rows).toHaveLength(JUDGES.length * LIMIT * 8);
    const blocked = rows.filter((r) => r.status === 'blocked');
    // zhBroken: ZH orig/swap and both tie probes; lsRefused: LS orig/swap — per judge.
    expect(blocked).toHaveLength(JUDGES.length * 6);
    for (const r of blocked) {
      expect([zhBroken.sourceId, lsRefused.sourceId]).toContain(r.item_id);
      expect(r.reason).toMatch(/^blocked: translation to (ZH|LS) failed \(/);
      expect(r.winner).toBe('');
    }
    expect(rows.filter((r) => r.status === 'pending')).toHaveLength(0);
  });
});

describe("Judge-LS's judgments view (experiments.protocolView)", () => {
  it('filters by kind, alone and with judge and status', async () => {
    const all = judgeLsRows.judgments(
      await core.call('experiments.protocolView', { experimentId, view: 'judgments' }),
    );
    expect(all).toHaveLength(JUDGES.length * (QUALITY_PER_JUDGE + PROBES_PER_JUDGE));

    const probes = judgeLsRows.judgments(
      await core.call('experiments.protocolView', {
        experimentId,
        view: 'judgments',
        query: { kind: 'tie_probe' },
      }),
    );
    expect(probes).toHaveLength(JUDGES.length * PROBES_PER_JUDGE);
    expect(new Set(probes.map((j) => `${j.kind}/${j.language}`))).toEqual(new Set(['tie_probe/EN-ZH']));

    const quality = judgeLsRows.judgments(
      await core.call('experiments.protocolView', {
        experimentId,
        view: 'judgments',
        query: { kind: 'quality' },
      }),
    );
    expect(quality).toHaveLength(JUDGES.length * QUALITY_PER_JUDGE);
    expect(quality.every((j) => j.kind === 'quality')).toBe(true);

    const gptProbes = judgeLsRows.judgments(
      await core.call('experiments.protocolView', {
        experimentId,
        view: 'judgments',
        query: { kind: 'tie_probe', judge: 'GPT mock' },
      }),
    );
    expect(gptProbes).toEqual(probes.filter((j) => j.judge === 'GPT mock'));

    const failedQuality = judgeLsRows.judgments(
      await core.call('experiments.protocolView', {
        experimentId,
        view: 'judgments',
        query: { kind: 'quality', status: 'failed' },
      }),
    );
    expect(failedQuality).toEqual(all.filter((j) => j.kind === 'quality' && j.status === 'failed'));
  });

  it('refuses an edit in a language the protocol does not transform, naming the field, before storing it', async () => {
    const before = judgeLsRows.variants(
      await core.call('experiments.protocolView', { experimentId, view: 'variants' }),
    );
    const item = before[0];
    await expect(
      core.call('experiments.protocolEdit', {
        experimentId,
        edit: 'variant',
        fields: { itemId: item.itemId, language: 'FR', instruction: 'x', output1: 'y', output2: 'z' },
      }),
    ).rejects.toMatchObject({ code: 'invalid_params', message: expect.stringMatching(/^language: /) });
    expect(
      judgeLsRows.variants(await core.call('experiments.protocolView', { experimentId, view: 'variants' })),
    ).toEqual(before);
  });

  it('refuses a kind that is not a judgment kind, naming the field', async () => {
    await expect(
      core.call('experiments.protocolView', {
        experimentId,
        view: 'judgments',
        query: { kind: 'transform' as never },
      }),
    ).rejects.toMatchObject({ code: 'invalid_params', message: expect.stringMatching(/kind/) });
  });

  it('returns very long reasons whole', async () => {
    const about = judgeLsRows.judgments(
      await core.call('experiments.protocolView', {
        experimentId,
        view: 'judgments',
        query: { itemId: longReasons.id },
      }),
    );
    const ok = about.filter((j) => j.status === 'ok');
    expect(ok.length).toBeGreaterThan(0);
    for (const j of ok) {
      expect(j.reason!.endsWith(LONG_TAIL)).toBe(true);
      expect(j.reason!.length).toBeGreaterThan(LONG_TAIL.length);
    }
  });

  it('answers the whole list quickly (time printed; only correctness asserted)', async () => {
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      count = judgeLsRows.judgments(
        await core.call('experiments.protocolView', { experimentId, view: 'judgments' }),
      ).length;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(
      `experiments.judgments: ${count} judgments in ${times[2].toFixed(1)} ms (median of 5; ` +
        `${((times[2] / count) * 1000).toFixed(1)} µs per judgment)`,
    );
    expect(count).toBe(JUDGES.length * (QUALITY_PER_JUDGE + PROBES_PER_JUDGE));
  });
});

describe('experiments.flagged', () => {
  it('lists the audit flags without computing metrics, exactly as results does', async () => {
    const { flagged } = await core.call('experiments.flagged', { experimentId });
    const expected = items.filter(dropsNumbers).map((i) => i.sourceId);
    expect(expected.length).toBeGreaterThan(0);
    expect(flagged.map((f) => f.item_id)).toEqual(expected);
    for (const f of flagged) expect(f.reasons.join(' ')).toMatch(/numbers_missing/);
    const results = await core.call('experiments.results', { experimentId });
    expect(flagged).toEqual(results.flagged);
  });

  it('answers not_found for an unknown experiment', async () => {
    await expect(core.call('experiments.flagged', { experimentId: 999 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('experiments.failures', () => {
  let rows: FailedCallView[];
  beforeAll(async () => {
    rows = (await core.call('experiments.failures', { experimentId })).rows;
  });

  it('lists the failed translations first, with their raw answer when one came', () => {
    const transforms = rows.filter((r) => r.stage === 'transform');
    expect(rows.slice(0, transforms.length)).toEqual(transforms);
    expect(transforms).toHaveLength(2);
    const zh = transforms.find((r) => r.language === 'ZH')!;
    expect(zh).toMatchObject({
      judge: null,
      order: null,
      kind: 'transform',
      sourceId: zhBroken.sourceId,
      itemId: zhBroken.id,
      attempts: 3,
    });
    expect(zh.reason).toMatch(/unparseable|not JSON/i);
    expect(zh.rawText).toBeTruthy();
    expect(zh.rawText).not.toMatch(/^\s*\{/);

    const ls = transforms.find((r) => r.language === 'LS')!;
    expect(ls).toMatchObject({ sourceId: lsRefused.sourceId, itemId: lsRefused.id, attempts: 1 });
    expect(ls.reason).toMatch(/400/);
  });

  it('then every failed judgment, with its reason and raw answer', async () => {
    const judged = rows.filter((r) => r.stage === 'judge');
    const failed = judgeLsRows.judgments(
      await core.call('experiments.protocolView', {
        experimentId,
        view: 'judgments',
        query: { status: 'failed' },
      }),
    );
    expect(failed.length).toBeGreaterThan(0);
    expect(failed).toHaveLength(responder.stickyFailures.size);
    expect(judged).toEqual(
      failed.map((j) => ({
        stage: 'judge',
        judge: j.judge,
        sourceId: j.sourceId,
        itemId: j.itemId,
        language: j.language,
        order: j.order,
        kind: j.kind,
        reason: j.failureReason,
        rawText: j.rawText,
        attempts: j.attempts,
      })),
    );
    for (const r of judged) expect(r.rawText).toBeTruthy();
  });

  it('agrees with the failures counted in the metrics', async () => {
    const metrics = (await core.call('experiments.results', { experimentId })).metrics as JudgeLsMetrics;
    const counted = metrics.failures.reduce((n, f) => n + f.count, 0);
    expect(rows).toHaveLength(counted);
    const transformer = metrics.failures.filter((f) => f.kind === 'transform');
    expect(transformer.reduce((n, f) => n + f.count, 0)).toBe(2);
  });

  it('re-parses from the ledger a result the store lacks, and reports one a stricter parser rejects', async () => {
    // Answers are parsed once, when stored. A done answer whose JSON lacks a field (written
    // before the parser got stricter), with its derived result gone (as after an upgrade that
    // clears derived results), is parsed again from the ledger and reported.
    const task = tasksOf(core.db, experimentId, 'transform').find(
      (t) => (t.meta as { itemId: number; language: string }).itemId === longReasons.id,
    )!;
    core.db
      .prepare('UPDATE requests SET response_json = ?, response_text = ? WHERE id = ?')
      .run('{"instruction":"指令"}', '{"instruction":"指令"}', task.requestId);
    core.db
      .prepare('DELETE FROM task_results WHERE experiment_id = ? AND task_key = ?')
      .run(experimentId, task.key);
    const after = (await core.call('experiments.failures', { experimentId })).rows;
    const added = after.filter((r) => r.stage === 'transform' && r.sourceId === longReasons.sourceId);
    expect(added).toHaveLength(1);
    expect(added[0].reason).toMatch(/^unparseable: "output_1" is missing/);
    expect(added[0].rawText).toBe('{"instruction":"指令"}');
  });
});
