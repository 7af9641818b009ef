// `judge-lab batch export|import`: the offline round trip through a GPU cluster's
// `vllm run-batch` (the mock in test/mock-provider/vllm-run-batch.ts), with the real CLI and a
// real store: a partial output file with planted errors (failures listed, asked again by the
// next export), a file of another experiment refused, a run killed with calls on the wire
// between export and import, and the study going on stage by stage until every call is answered
// once, never paid twice.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider } from '../mock-provider/server';
import { vllmRunBatch } from '../mock-provider/vllm-run-batch';
import { assertBuilt, BIN, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE, llmbarSampleItems } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

const MODEL = 'Qwen/Qwen2.5-7B-Instruct';
const OTHER = 'meta-llama/Llama-3.1-8B-Instruct';
const items = llmbarSampleItems();

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

interface InputLine {
  custom_id: string;
  method: string;
  url: string;
  body: { model: string; messages: unknown[]; response_format?: unknown };
}
const readLines = (file: string): InputLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as InputLine);
/** The ledger request a custom id asks (`jl-e<exp>-r<request>-<seal>`). */
const requestOf = (customId: string) => Number(/-r(\d+)-/.exec(customId)![1]);

describe('judge-lab batch export / import (vllm run-batch files)', () => {
  it('goes round trip stage by stage: partial files, planted errors, another experiment refused, a kill between', async () => {
    // The cluster's provider entry: an OpenAI-compatible server the app would reach live. Here
    // it is a mock that never answers, so only a run killed part way ever talks to it.
    const mock = await startMockProvider({
      respond: judgeLsResponder(items).respond,
      faultFor: () => 'hang',
    });
    const data = join(dir, 'data');
    // Batch files need no key: the app never calls the cluster (only the killed run below has one).
    const env = { MOCK_API_KEY: 'sk-test' };
    const cli = (args: string[]) => runCliInProcess([...args, '--data-dir', data], {}, { cwd: dir });
    const config = (name: string, extra: Record<string, unknown> = {}) => {
      const file = join(dir, `${name}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          name,
          protocol: 'judge-ls',
          dataset: LLMBAR_SAMPLE,
          limit: 3,
          providers: { cluster: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_API_KEY' } },
          transform: { provider: 'cluster', model: MODEL },
          judges: [{ label: 'Qwen judge', provider: 'cluster', model: MODEL }],
          ...extra,
        }),
      );
      return file;
    };
    try {
      const cfg = config('cluster-study');
      // Export 1: the config creates the experiment; only the translations can be asked yet.
      const req1 = join(dir, 'requests-1.jsonl');
      const e1 = await cli(['batch', 'export', cfg, '--out', req1]);
      expect(e1.code, e1.stderr).toBe(0);
      expect(e1.stdout).toContain(`vllm run-batch -i ${req1} -o results.jsonl --model ${MODEL}`);
      expect(e1.stdout).toContain(`Then: judge-lab batch import "cluster-study" results.jsonl`);
      const lines1 = readLines(req1);
      // One model a vllm run-batch: --model writes only that model's requests.
      const none = join(dir, 'none.jsonl');
      const em = await cli(['batch', 'export', 'cluster-study', '--out', none, '--model', 'other-model']);
      expect(em.stdout).toContain(`${lines1.length} open requests of other models left out (--model)`);
      expect(readFileSync(none, 'utf8')).toBe('');
      // Translations and the EN verdicts (which need none) go out first; the ZH/LS verdicts wait.
      expect(lines1.length).toBeGreaterThanOrEqual(6);
      expect(lines1.length).toBeLessThan(6 + 3 * 8);
      for (const l of lines1) {
        expect(l).toMatchObject({ method: 'POST', url: '/v1/chat/completions', body: { model: MODEL } });
        expect(l.custom_id).toMatch(/^jl-e\d+-r\d+-[0-9a-f]{16}$/);
      }

      // The cluster: line 2 errors, and the run stops part way: the last 4 lines are not
      // written, the first of them half written (some translations come back, some do not).
      const res1 = join(dir, 'results-1.jsonl');
      const whole = lines1.length - 4;
      vllmRunBatch(['-i', req1, '-o', res1, '--model', MODEL], {
        errorAt: (n) => (n === 2 ? 500 : undefined),
        stopAfter: whole,
      });
      const i1 = await cli(['batch', 'import', 'cluster-study', res1]);
      expect(i1.code, i1.stderr).toBe(0);
      expect(i1.stdout).toContain(
        `${whole - 1} answers stored, 0 already answered (kept), 0 to ask again, 1 failed, 1 unreadable`,
      );
      expect(i1.stdout).toContain(`failed: line 2 (${lines1[1].custom_id}): server: Internal server error`);
      expect(i1.stdout).toContain(`unreadable: line ${whole + 1}: not a JSON line`);

      // A file of this experiment does not go into another one: refused whole, naming file,
      // line and field, and nothing of it stored there.
      // (Another model: its requests are its own, not shared through the ledger with the first.)
      const other = config('other-study', {
        maxParseRetries: 0,
        transform: { provider: 'cluster', model: OTHER },
        judges: [{ label: 'Other judge', provider: 'cluster', model: OTHER }],
      });
      const otherReq = join(dir, 'other.jsonl');
      const eo = await cli(['batch', 'export', other, '--out', otherReq]);
      expect(eo.code, eo.stderr).toBe(0);
      const io = await cli(['batch', 'import', 'other-study', res1]);
      expect(io.code).toBe(2);
      expect(io.stderr).toContain(`${res1}:1: field "custom_id": made for experiment`);
      expect(io.stderr).toContain('not "other-study"');
      // Its own file, every answer prose, no re-asks allowed: each fails as an unusable answer
      // (with its raw text), and the next export does not ask it again.
      const otherRes = join(dir, 'other-results.jsonl');
      vllmRunBatch(['-i', otherReq, '-o', otherRes, '--model', OTHER], { proseAt: () => true });
      const ip = await cli(['batch', 'import', 'other-study', otherRes]);
      const otherLines = readLines(otherReq);
      const structured = otherLines.filter((l) => l.body.response_format !== undefined).length;
      expect(structured).toBeGreaterThan(0);
      expect(ip.stdout).toContain(`, 0 to ask again, ${structured} failed`);
      expect(ip.stdout).toMatch(
        /failed: line \d+ \(jl-e\d+-r\d+-[0-9a-f]{16}\): unparseable: .*\(asked 1 time\)/,
      );
      const eo2 = await cli(['batch', 'export', 'other-study', '--out', join(dir, 'other-2.jsonl')]);
      const asked = new Set(readLines(join(dir, 'other-2.jsonl')).map((l) => l.custom_id));
      for (const l of otherLines)
        if (l.body.response_format !== undefined) expect(asked.has(l.custom_id)).toBe(false);
      expect(eo2.code).toBe(0);
      // A line whose request changed (its seal no longer matches) is refused the same way.
      const forged = join(dir, 'forged.jsonl');
      writeFileSync(forged, readFileSync(res1, 'utf8').replace(/-([0-9a-f]{16})"/, '-0000000000000000"'));
      const ifg = await cli(['batch', 'import', 'cluster-study', forged]);
      expect(ifg.code).toBe(2);
      expect(ifg.stderr).toMatch(
        /forged\.jsonl:1: field "custom_id": request \d+ is not a request of "cluster-study"/,
      );

      // The same file again: its answers are kept, never replaced or counted twice.
      const again = await cli(['batch', 'import', 'cluster-study', res1]);
      expect(again.stdout).toContain(`0 answers stored, ${whole - 1} already answered (kept)`);

      // Export 2: the failed and the unanswered translations again, and the verdicts the three
      // stored translations unlock.
      const req2 = join(dir, 'requests-2.jsonl');
      const e2 = await cli(['batch', 'export', 'cluster-study', '--out', req2]);
      expect(e2.code, e2.stderr).toBe(0);
      const lines2 = readLines(req2);
      const asked2 = new Set(lines2.map((l) => requestOf(l.custom_id)));
      const answered1 = lines1.flatMap((l, i) => (i !== 1 && i < whole ? [requestOf(l.custom_id)] : []));
      for (const id of answered1) expect(asked2.has(id)).toBe(false);
      for (const [i, l] of lines1.entries())
        if (!answered1.includes(requestOf(l.custom_id)))
          expect(asked2.has(requestOf(l.custom_id)), `line ${i + 1}`).toBe(true);
      expect(lines2.length).toBeGreaterThan(lines1.length - answered1.length);

      // A run started on the experiment by mistake (its server never answers) is killed with
      // calls on the wire: those rows are left in flight under a dead process.
      const child = spawn(
        process.execPath,
        [BIN, 'run', cfg, '--data-dir', data, '--out', join(dir, 'run-out')],
        {
          cwd: dir,
          env: { ...process.env, ...env },
          stdio: 'ignore',
        },
      );
      const exited = new Promise((r) => child.once('exit', r));
      await expect.poll(() => mock.log.length, { timeout: 60_000 }).toBeGreaterThan(0);
      child.kill('SIGKILL');
      await exited;
      const db = new Database(join(data, 'judge-lab.sqlite'), { readonly: true });
      const inFlight = () =>
        (db.prepare(`SELECT COUNT(*) FROM requests WHERE status = 'in_flight'`).pluck().get() as number) ?? 0;
      expect(inFlight()).toBeGreaterThan(0);

      // The cluster answers export 2, one answer in prose (not the JSON asked): it is asked
      // again by the next export. The rows the killed run held take their answers.
      const res2 = join(dir, 'results-2.jsonl');
      const prose = lines2.findIndex((l) => l.body.response_format !== undefined) + 1;
      expect(prose).toBeGreaterThan(0);
      vllmRunBatch(['-i', req2, '-o', res2, '--model', MODEL], { proseAt: (n) => n === prose });
      const i2 = await cli(['batch', 'import', 'cluster-study', res2]);
      expect(i2.code, i2.stderr).toBe(0);
      expect(i2.stdout).toContain(
        `${lines2.length - 1} answers stored, 0 already answered (kept), 1 to ask again, 0 failed`,
      );
      expect(inFlight()).toBe(0);

      // On until nothing is open: each export holds only what is not answered yet.
      const stored = new Set([
        ...answered1,
        ...lines2.filter((_, i) => i + 1 !== prose).map((l) => requestOf(l.custom_id)),
      ]);
      let exports = 2;
      for (;;) {
        const req = join(dir, `requests-${++exports}.jsonl`);
        const e = await cli(['batch', 'export', 'cluster-study', '--out', req]);
        expect(e.code, e.stderr).toBe(0);
        const lines = readLines(req);
        if (!lines.length) break;
        for (const l of lines) expect(stored.has(requestOf(l.custom_id))).toBe(false);
        const res = join(dir, `results-${exports}.jsonl`);
        vllmRunBatch(['-i', req, '-o', res, '--model', MODEL]);
        const i = await cli(['batch', 'import', 'cluster-study', res]);
        expect(i.stdout).toContain(`${lines.length} answers stored`);
        for (const l of lines) stored.add(requestOf(l.custom_id));
        expect(exports).toBeLessThan(8);
      }
      // Every planned call answered, each paid (attempted) as often as it was exported.
      const counts = db
        .prepare(
          `SELECT r.status, COUNT(DISTINCT r.id) AS n FROM experiment_tasks t JOIN requests r ON r.id = t.request_id
           JOIN experiments e ON e.id = t.experiment_id WHERE e.name = 'cluster-study' GROUP BY r.status`,
        )
        .all() as { status: string; n: number }[];
      expect(counts).toEqual([{ status: 'done', n: stored.size }]);
      expect(stored.size).toBeGreaterThan(lines1.length + lines2.length - 2); // later stages came
      db.close();
      const out = join(dir, 'export');
      const x = await cli(['export', 'cluster-study', '--out', out]);
      expect(x.code, x.stderr).toBe(0);
      const metrics = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8')) as {
        failures: unknown[];
        quality: { language: string }[];
      };
      expect(metrics.failures).toEqual([]);
      // Verdicts on the translations came back too: the study went past its first stage.
      expect(new Set(metrics.quality.map((q) => q.language))).toEqual(new Set(['EN', 'ZH', 'LS']));
    } finally {
      await mock.close();
    }
  });
});
