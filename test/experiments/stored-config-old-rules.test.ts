// Experiments stored by an older release may carry an `apiKeyEnv` name the current rule
// refuses (it only guards which variable is sent as a key). They must still open: list,
// detail, results and exports work, the bad field is reported on the experiment, and only
// running it is refused until the field is fixed.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Core } from '../../src/main/facade/core';
import { AppError } from '../../src/main/base/errors';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { mockKeys, startLlmbarMock, type LlmbarMock } from '../helpers/llmbar-mock';

let env: LlmbarMock | undefined;
let reopened: Core | undefined;
afterEach(async () => {
  await reopened?.shutdown();
  reopened = undefined;
  await env?.close();
  env = undefined;
});

const OLD_NAME = 'my-openai-key'; // accepted before the _API_KEY/_KEY/_TOKEN rule

describe('a stored config that a newer rule refuses', () => {
  it('still lists, opens, shows results and exports; names the field; refuses only to run', async () => {
    assertBuilt();
    env = await startLlmbarMock('cli');
    const { core, mock, datasetId, dataDir } = env;
    const config = {
      name: 'old-release',
      protocol: 'judge-ls',
      dataset: datasetId,
      limit: 3,
      providers: { o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
      transform: { provider: 'o', model: 'gpt-4.1-mini', languages: ['ZH'] },
      judges: [{ label: 'GPT', provider: 'o', model: 'gpt-4.1-mini' }],
    };
    const { id } = await core.call('experiments.create', { config });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const before = await core.call('experiments.results', { experimentId: id });
    await core.shutdown();

    // The store as an older release wrote it: raw SQL, no validation on the way in.
    const db = new Database(join(dataDir, 'judge-lab.sqlite'));
    const old = (cfg: object) => JSON.stringify({ ...cfg, dataset: datasetId });
    const withOldKey = (name: string) => ({
      ...config,
      name,
      providers: { o: { ...config.providers.o, apiKeyEnv: OLD_NAME } },
    });
    db.prepare('UPDATE experiments SET config_json = ? WHERE id = ?').run(old(withOldKey('old-release')), id);
    const inserted = Number(
      db
        .prepare(
          "INSERT INTO experiments (name, protocol, dataset_id, config_json, status) VALUES (?, 'judge-ls', ?, ?, 'draft')",
        )
        .run('never-run', datasetId, old(withOldKey('never-run'))).lastInsertRowid,
    );
    db.close();

    reopened = new Core({ dataDir, door: 'cli', keys: mockKeys() });
    const list = await reopened.call('experiments.list', undefined);
    expect(list.map((e) => e.name).sort()).toEqual(['never-run', 'old-release']);
    for (const e of list)
      expect(e.configProblem).toMatch(
        /^providers\.o\.apiKeyEnv: must be an environment variable name in capitals.*cannot run until this is fixed/,
      );

    const detail = await reopened.call('experiments.get', { experimentId: id });
    expect(detail.status).toBe('finished');
    expect(detail.configProblem).toMatch(/providers\.o\.apiKeyEnv/);
    expect((detail.config as typeof config).providers.o.apiKeyEnv).toBe(OLD_NAME);
    expect((await reopened.call('experiments.get', { experimentId: inserted })).name).toBe('never-run');

    const results = await reopened.call('experiments.results', { experimentId: id });
    expect(results.counts).toEqual(before.counts);
    const out = join(dataDir, 'exports-old');
    const exported = await reopened.call('experiments.export', { experimentId: id, outDir: out });
    expect(exported.files.length).toBeGreaterThan(3);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    const zip = await reopened.call('experiments.exportZip', { experimentId: id });
    expect(zip.contentBase64.length).toBeGreaterThan(100);
    const cli = await reopened.call('experiments.cliConfig', { experimentId: id });
    expect(Buffer.from(cli.contentBase64, 'base64').toString('utf8')).toContain(`"apiKeyEnv": "${OLD_NAME}"`);

    // Running, resuming and retrying are refused, naming the field; nothing is sent.
    const sent = mock.log.length;
    for (const method of ['experiments.start', 'experiments.resume', 'experiments.retryFailed'] as const) {
      const err = await reopened.call(method, { experimentId: inserted }).catch((e: unknown) => e);
      expect(err, method).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('invalid_input');
      expect((err as AppError).message).toMatch(
        /Experiment "never-run" cannot run: providers\.o\.apiKeyEnv: must be an environment variable name/,
      );
      expect((err as AppError).issues[0]).toMatchObject({ field: 'providers.o.apiKeyEnv' });
    }
    expect(mock.log.length).toBe(sent);

    // `judge-lab list` says so on the experiment; `judge-lab export` works.
    await reopened.shutdown();
    reopened = undefined;
    const listed = await runCliInProcess(['list', '--data-dir', dataDir]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/never-run .*\n\s+cannot run: providers\.o\.apiKeyEnv: must be/);
    const cliExport = await runCliInProcess([
      'export',
      'old-release',
      '--out',
      join(dataDir, 'cli-export'),
      '--data-dir',
      dataDir,
    ]);
    expect(cliExport.code, cliExport.stderr).toBe(0);

    // The way out the message names: the same name with the field fixed continues the experiment.
    reopened = new Core({ dataDir, door: 'cli', keys: mockKeys() });
    const fixed = reopened.experiments.createOrUpdate({ ...config, name: 'never-run' });
    expect(fixed.configProblem).toBeUndefined();
    expect((await reopened.experiments.runToEnd(inserted)).status).toBe('finished');
  });

  it('is refused on load as before when it breaks a rule beyond the key name', async () => {
    env = await startLlmbarMock('cli');
    const { core, datasetId, dataDir } = env;
    await core.shutdown();
    const db = new Database(join(dataDir, 'judge-lab.sqlite'));
    db.prepare(
      "INSERT INTO experiments (name, protocol, dataset_id, config_json) VALUES ('broken', 'judge-ls', ?, ?)",
    ).run(
      datasetId,
      JSON.stringify({
        name: 'broken',
        protocol: 'judge-ls',
        dataset: datasetId,
        providers: { o: { kind: 'openai', apiKeyEnv: OLD_NAME, rmp: 5 } },
        transform: { provider: 'o', model: 'm' },
        judges: [{ label: 'GPT', provider: 'o', model: 'm' }],
      }),
    );
    db.close();
    reopened = new Core({ dataDir, door: 'cli', keys: mockKeys() });
    // The list still shows it, with why; opening it names the problem.
    const [row] = await reopened.call('experiments.list', undefined);
    expect(row.configProblem).toMatch(/^experiment "broken": providers\.o\.rmp: unknown key$/);
    await expect(reopened.call('experiments.get', { experimentId: row.id })).rejects.toThrow(
      /providers\.o\.rmp: unknown key/,
    );
  });
});
