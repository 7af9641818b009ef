import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { assertBuilt, BIN, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE, llmbarSampleItems } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

const SAMPLE = LLMBAR_SAMPLE;
const LIMIT = 30;
const KEYS = { MOCK_OPENAI_KEY: 'sk-test-cli', MOCK_ANTHROPIC_KEY: 'sk-ant-cli' };

// The mock needs Item-shaped records to know which output a prompt shows.
const items = llmbarSampleItems();

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

function writeConfig(name: string, url: string, extra: Record<string, unknown> = {}): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      protocol: 'judge-ls',
      dataset: SAMPLE,
      limit: LIMIT,
      providers: {
        openai: { kind: 'openai', baseURL: `${url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY', concurrency: 6 },
        anthropic: { kind: 'anthropic', baseURL: url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY', concurrency: 6 },
      },
      transform: { provider: 'openai', model: 'gpt-4.1-mini', languages: ['ZH', 'LS'] },
      judges: [
        { label: 'GPT mock', provider: 'openai', model: 'gpt-4.1-mini' },
        { label: 'Claude mock', provider: 'anthropic', model: 'claude-haiku-4-5' },
      ],
      ...extra,
    }),
  );
  return file;
}

async function mockFor(latency: [number, number] = [0, 0]): Promise<MockProvider> {
  const responder = judgeLsResponder(items);
  return startMockProvider({ respond: responder.respond, latencyMs: latency, wrapText: false });
}

/** Runs the CLI's entry in this process, beside the mock (spawnSync would block the mock). */
const runAsync = (args: string[]) => runCliInProcess(args, KEYS, { cwd: dir });

describe('judge-lab run', () => {
  it('plans, shows the estimate, runs with progress, and exports', async () => {
    const mock = await mockFor();
    try {
      const cfg = writeConfig('cli-run', mock.url);
      const out = join(dir, 'out-run');
      const r = await runAsync(['run', cfg, '--out', out, '--data-dir', join(dir, 'data-run')]);
      expect(r.stderr).toMatch(/Plan:/);
      expect(r.stderr).toMatch(/transform\s+60 calls/);
      expect(r.stderr).toMatch(/\[judge\]/);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Finished "cli-run"/);
      expect(mock.bodies.filter((b) => b.schemaName === 'language_variant')).toHaveLength(60);
      expect(mock.bodies.filter((b) => b.schemaName === 'pairwise_verdict')).toHaveLength(LIMIT * 8 * 2);
      for (const f of ['metrics.json', 'judgments.csv', 'manifest.json'])
        expect(existsSync(join(out, f))).toBe(true);
      expect(readdirSync(join(out, 'tables')).some((f) => f.endsWith('.tex'))).toBe(true);
      expect(readdirSync(join(out, 'figures')).some((f) => f.endsWith('.png'))).toBe(true);

      // Running it again resumes: nothing is sent twice.
      const again = await runAsync(['run', cfg, '--out', out, '--data-dir', join(dir, 'data-run')]);
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(/total 540 calls, 540 already stored/);
      expect(mock.bodies).toHaveLength(60 + LIMIT * 16);

      const list = await runCliInProcess(['list', '--data-dir', join(dir, 'data-run')]);
      expect(list.stdout).toMatch(/cli-run\s+finished\s+540\/540 calls done/);
    } finally {
      await mock.close();
    }
  });

  it('rejects a config with an unknown key or a missing provider with exit 2, naming the key', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        name: 'x',
        protocol: 'judge-ls',
        dataset: SAMPLE,
        providers: {},
        transform: { provider: 'nope', model: 'm' },
        judges: [{ label: 'j', provider: 'nope', model: 'm', tempreature: 0 }],
      }),
    );
    const r = await runCliInProcess(['run', bad, '--data-dir', join(dir, 'data-bad')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/transform\.provider/);
    expect(r.stderr).toMatch(/judges\[0\]\.tempreature: unknown key/);
  });

  it('survives SIGKILL mid-run: the re-run finishes with the same metrics and pays again only calls on the wire at the kill', async () => {
    // Reference: an uninterrupted run.
    const refMock = await mockFor();
    const refOut = join(dir, 'out-ref');
    try {
      const r = await runAsync([
        'run',
        writeConfig('crash', refMock.url),
        '--out',
        refOut,
        '--data-dir',
        join(dir, 'data-ref'),
      ]);
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await refMock.close();
    }

    const mock = await mockFor([5, 25]);
    const data = join(dir, 'data-crash');
    const out = join(dir, 'out-crash');
    try {
      const cfg = writeConfig('crash', mock.url);
      const child = spawn(process.execPath, [BIN, 'run', cfg, '--out', out, '--data-dir', data], {
        cwd: dir,
        env: { ...process.env, ...KEYS },
        stdio: 'ignore',
      });
      let exited = false;
      const exit = new Promise((r) => child.once('exit', r)).then(() => (exited = true));
      // Polled every few ms, not spun on setImmediate: a busy loop here takes a core from the
      // child it waits for. Nothing is lost meanwhile: from mock.hold() on, answers wait.
      const until = async (cond: () => boolean) => {
        while (!cond() && !exited) await new Promise((r) => setTimeout(r, 5));
      };
      await until(() => mock.bodies.filter((b) => b.schemaName === 'pairwise_verdict').length >= 150);
      // Kill right after an answer arrived (see test/queue/crash-recovery.test.ts): every
      // slot of both judges on the wire, one answer let go, and the kill as soon as the
      // call replacing it is sent.
      mock.hold();
      await until(() => mock.heldCount() === 12);
      const beforeRelease = mock.log.length;
      mock.releaseHeld(1);
      await until(() => mock.log.length > beforeRelease);
      expect(exited).toBe(false);
      child.kill('SIGKILL');
      const onWireAtKill = mock.log.filter((e) => e.endedAt === undefined).length;
      await exit;
      mock.stopHolding();
      const sentBeforeKill = mock.bodies.length;
      expect(existsSync(join(out, 'metrics.json'))).toBe(false);

      // What the ledger holds as answered at the moment of the kill.
      const key = (model: string, lastUser: string) => `${model}\u0000${lastUser}`;
      const ledger = new Database(join(data, 'judge-lab.sqlite'), { readonly: true });
      const doneAtKill = new Set(
        (
          ledger.prepare("SELECT request_json FROM requests WHERE status = 'done'").all() as {
            request_json: string;
          }[]
        ).map((r) => {
          const c = JSON.parse(r.request_json) as {
            model: string;
            messages: { role: string; content: string }[];
          };
          return key(c.model, c.messages.filter((m) => m.role === 'user').at(-1)!.content);
        }),
      );
      ledger.close();
      const before = new Set(mock.bodies.map((b) => key(b.model, b.lastUser)));
      expect(doneAtKill.size).toBeGreaterThan(100);
      // Sanity: the ledger's contents are the ones the mock saw.
      for (const k of doneAtKill) expect(before.has(k)).toBe(true);

      const r = await runAsync(['run', cfg, '--out', out, '--data-dir', data]);
      expect(r.code, r.stderr).toBe(0);

      const after = mock.bodies.slice(sentBeforeKill).map((b) => key(b.model, b.lastUser));
      // No stored answer was paid for again: the re-run sent only what the ledger lacked.
      expect(after.filter((k) => doneAtKill.has(k))).toEqual([]);
      // Paid again: no more than the calls on the wire at the kill (from the mock's log).
      const repaid = new Set(after.filter((k) => before.has(k)));
      expect(onWireAtKill).toBe(12);
      expect(repaid.size).toBeLessThanOrEqual(onWireAtKill);
      // Every request was answered, each content at most twice (before and after the kill).
      const counts = new Map<string, number>();
      for (const b of mock.bodies)
        counts.set(key(b.model, b.lastUser), (counts.get(key(b.model, b.lastUser)) ?? 0) + 1);
      expect(counts.size).toBe(60 + LIMIT * 16);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);

      const ref = JSON.parse(readFileSync(join(refOut, 'metrics.json'), 'utf8'));
      const got = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
      expect(got).toEqual(ref);
    } finally {
      await mock.close();
    }
  });
});
