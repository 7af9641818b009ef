// Issue 32 item 5: one model judged through two provider entries (an OpenAI-kind and an
// Anthropic-kind entry, the same model id), its answers exported and replayed with `"kind":
// "recorded"`. A recorded answer belongs to the entry and judge that gave it: with the second
// judge's verdicts flipped in the file, the replay reports the flipped verdicts for that judge
// (not the first judge's, whose identical requests the two entries used to share); both study
// bundles verify identical; and with a file per provider, each counts missing answers over its
// own slots only.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLsResponder } from '../mock-provider/judge-ls-responder';
import { startMockProvider, type MockProvider } from '../mock-provider/server';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { LLMBAR_SAMPLE, llmbarSampleItems } from '../helpers/llmbar-sample';
import { tempDir } from '../helpers/tmp';

const KEYS = { MOCK_OPENAI_KEY: 'sk-test-two', MOCK_ANTHROPIC_KEY: 'sk-ant-two' };
const MODEL = 'gpt-4.1-mini';

let dir: string;
let cleanup: () => void;
let mock: MockProvider;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  mock = await startMockProvider({ respond: judgeLsResponder(llmbarSampleItems()).respond, wrapText: false });
});
afterAll(async () => {
  await mock?.close();
  cleanup?.();
});

const cli = (...args: string[]) =>
  runCliInProcess([...args, '--data-dir', join(dir, 'data')], KEYS, { cwd: dir });

function writeConfig(name: string, providers: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      protocol: 'judge-ls',
      dataset: LLMBAR_SAMPLE,
      limit: 12,
      providers,
      transform: { provider: 'o', model: MODEL, languages: ['ZH'] },
      judges: [
        { label: 'J1', provider: 'o', model: MODEL },
        { label: 'J2', provider: 'a', model: MODEL },
      ],
    }),
  );
  return file;
}

/** judgments.csv's verdict rows: slot (judge, item, kind, language, order) → winner. */
function winners(file: string): Map<string, string> {
  const [head, ...rows] = readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  const cols = head.split(',');
  const at = (name: string) => cols.indexOf(name);
  return new Map(
    rows.map((r) => {
      const c = r.split(',');
      const slot = ['judge', 'item_id', 'kind', 'language', 'order'].map((k) => c[at(k)]).join(' ');
      return [slot, c[at('winner')]];
    }),
  );
}

const flip: Record<string, string> = { A: 'B', B: 'A', tie: 'tie', invalid: 'invalid' };

async function bundleVerifies(experiment: string): Promise<void> {
  const file = join(dir, `${experiment}.judgelab`);
  const ex = await cli('bundle', 'export', experiment, '--out', file);
  expect(ex.code, ex.stderr).toBe(0);
  const verify = await cli('bundle', 'verify', file);
  expect(verify.stdout).toMatch(/Recomputed (\d+) files .*: \1 equal, 0 differ\./);
  expect(verify.code, verify.stdout + verify.stderr).toBe(0);
}

describe('recorded answers of one model through two providers', () => {
  it('answer each judge from its own rows, verify as bundles, and count missing per provider', async () => {
    const live = writeConfig('two-doors', {
      o: { kind: 'openai', baseURL: `${mock.url}/v1`, apiKeyEnv: 'MOCK_OPENAI_KEY' },
      a: { kind: 'anthropic', baseURL: mock.url, apiKeyEnv: 'MOCK_ANTHROPIC_KEY' },
    });
    const run = await cli('run', live, '--out', join(dir, 'live'));
    expect(run.code, run.stderr).toBe(0);
    await bundleVerifies('two-doors');

    const answers = join(dir, 'answers.jsonl');
    const ex = await cli('export-answers', 'two-doors', '--out', answers);
    expect(ex.code, ex.stderr).toBe(0);
    const rows = readFileSync(answers, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    // J2's verdicts flipped (A ↔ B) in the file: the replay must report exactly these for J2.
    const edited = rows.map((r) => {
      if (r.judge !== 'J2') return r;
      const v = JSON.parse(r.answer) as { winner: string };
      return { ...r, answer: JSON.stringify({ ...v, winner: flip[v.winner] ?? v.winner }) };
    });
    expect(edited.filter((r) => r.judge === 'J2').length).toBeGreaterThan(0);
    writeFileSync(answers, edited.map((r) => JSON.stringify(r)).join('\n') + '\n');

    const replay = writeConfig('two-doors-replay', {
      o: { kind: 'recorded', file: answers },
      a: { kind: 'recorded', file: answers },
    });
    const sentBefore = mock.log.length;
    const r2 = await cli('run', replay, '--out', join(dir, 'replay'));
    expect(r2.code, r2.stderr).toBe(0);
    expect(mock.log.length).toBe(sentBefore);
    const before = winners(join(dir, 'live', 'judgments.csv'));
    const after = winners(join(dir, 'replay', 'judgments.csv'));
    expect(after.size).toBe(before.size);
    let flipped = 0;
    for (const [slot, w] of before) {
      const expected = slot.startsWith('J2 ') ? flip[w] : w;
      expect(after.get(slot), slot).toBe(expected);
      if (expected !== w) flipped++;
    }
    expect(flipped).toBeGreaterThan(0);
    const quality = (
      JSON.parse(readFileSync(join(dir, 'replay', 'metrics.json'), 'utf8')) as {
        quality: { judge: string; language: string; accuracy_tie_half: number }[];
      }
    ).quality.filter((q) => q.language === 'EN');
    const liveQuality = (
      JSON.parse(readFileSync(join(dir, 'live', 'metrics.json'), 'utf8')) as {
        quality: { judge: string; language: string; accuracy_tie_half: number }[];
      }
    ).quality.filter((q) => q.language === 'EN');
    const acc = (qs: typeof quality, judge: string) => qs.find((q) => q.judge === judge)!.accuracy_tie_half;
    expect(acc(quality, 'J1')).toBe(acc(liveQuality, 'J1'));
    // Every J2 verdict flipped: its accuracy (a tie counting half) is the live one's complement.
    expect(acc(quality, 'J2')).toBeCloseTo(1 - acc(liveQuality, 'J2'), 12);
    expect(acc(quality, 'J2')).not.toBeCloseTo(acc(quality, 'J1'), 2);
    await bundleVerifies('two-doors-replay');

    // A file per provider: J2's rows for "a", the rest (translations, J1) for "o".
    const fileO = join(dir, 'answers-o.jsonl');
    const fileA = join(dir, 'answers-a.jsonl');
    writeFileSync(
      fileO,
      edited
        .filter((r) => r.judge !== 'J2')
        .map((r) => JSON.stringify(r) + '\n')
        .join(''),
    );
    writeFileSync(
      fileA,
      edited
        .filter((r) => r.judge === 'J2')
        .map((r) => JSON.stringify(r) + '\n')
        .join(''),
    );
    const split = writeConfig('two-files', {
      o: { kind: 'recorded', file: fileO },
      a: { kind: 'recorded', file: fileA },
    });
    const r3 = await cli('run', split, '--out', join(dir, 'split'));
    expect(r3.code, r3.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'split', 'manifest.json'), 'utf8')) as {
      recorded: { provider: string; missing: { count: number }; unmatched: { count: number } }[];
    };
    expect(manifest.recorded.map((r) => [r.provider, r.missing.count, r.unmatched.count])).toEqual([
      ['o', 0, 0],
      ['a', 0, 0],
    ]);
    expect(winners(join(dir, 'split', 'judgments.csv'))).toEqual(after);

    // Both judges on one recorded entry ask one request per question: J2's rows, answering it
    // otherwise than J1's, are refused as not recorded (never one judge given the other's). A
    // store of its own: in this one the entry's requests are answered already, from J1's rows.
    const shared = join(dir, 'one-entry.json');
    writeFileSync(
      shared,
      readFileSync(replay, 'utf8')
        .replace('"name":"two-doors-replay"', '"name":"one-entry"')
        .replace('"provider":"a"', '"provider":"o"'),
    );
    const r4 = await runCliInProcess(
      ['run', shared, '--out', join(dir, 'one-entry'), '--data-dir', join(dir, 'data-one')],
      KEYS,
      { cwd: dir },
    );
    expect(r4.code, r4.stderr).toBe(0);
    const csv = readFileSync(join(dir, 'one-entry', 'judgments.csv'), 'utf8');
    expect(csv).toContain('answer one request differently');
    const got = winners(join(dir, 'one-entry', 'judgments.csv'));
    for (const [slot, w] of before) {
      // A tie flips to itself: both rows agree, and it is answered.
      if (w === 'tie') expect(got.get(slot), slot).toBe('tie');
      else expect(got.get(slot), slot).toBe('invalid');
    }
  }, 600_000);
});
