// bench:overhead's side-by-side with a reference script (REF_DIR, REF_CMD): the reference gets the
// pairs and the mock's URL through its command's placeholders and environment, and its calls, exit
// code, CPU-seconds and peak RSS are what was measured of it, not of the bench.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockStats } from '../../bench/lib/mock-process';
import { referenceCommand, runReference, type ReferenceMock } from '../../bench/lib/reference-run';
import { startMockProvider, type MockProvider } from '../mock-provider/server';

let provider: MockProvider;
let mock: ReferenceMock;
let dir: string;

// A reference "script": one chat completion per pair, on the model and base URL it was given; it
// holds ~64 MiB while it works, so its peak RSS is its own and not the bench's.
const SCRIPT = `
import { readFileSync, writeFileSync } from 'node:fs';
const [data, model, out] = process.argv.slice(2);
const ballast = Buffer.alloc(64 * 2 ** 20, 1);
let n = 0;
for (const line of readFileSync(data, 'utf8').split('\\n').filter(Boolean)) {
  const pair = JSON.parse(line);
  const res = await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: pair.instruction }] }),
  });
  if (!res.ok) throw new Error('status ' + res.status);
  n++;
}
writeFileSync(out + '/done.txt', String(n + ballast[0] - 1));
`;

beforeAll(async () => {
  provider = await startMockProvider({ logBodies: false });
  mock = { url: provider.url, stats: async () => mockStats(provider) };
  dir = mkdtempSync(join(tmpdir(), 'judge-lab reference '));
  writeFileSync(join(dir, 'ref.mjs'), SCRIPT);
});

afterAll(async () => {
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

const pairs = Array.from({ length: 6 }, (_, i) => ({
  id: `p${i}`,
  instruction: `Question ${i}?`,
  output_1: 'a',
  output_2: 'b',
  label: 1 as const,
}));

describe('bench:overhead reference side by side', () => {
  it('runs the command in REF_DIR on the pairs and measures it, not the bench', async () => {
    const f = await runReference(mock, {
      dir,
      command: `"${process.execPath}" ref.mjs {data} {model} {out} && test -f {out}/done.txt`,
      pairs,
      model: 'ref-model',
      rpm: 600,
    });
    expect(f.stderrTail).toBe('');
    expect(f.code).toBe(0);
    expect(f.calls).toBe(6);
    expect(f.byModel).toEqual({ 'ref-model': 6 });
    expect(f.errors).toBe(0);
    expect(f.boundS).toBeCloseTo(0.6, 6);
    expect(f.cpuS).toBeGreaterThan(0);
    // Its ballast: the bench's own process would not have it.
    expect(f.peakRssMiB).toBeGreaterThan(64);
    expect(f.command).toContain("'ref-model'");
  });

  it('reports a failing reference with its exit code and last words', async () => {
    const f = await runReference(mock, {
      dir,
      command: `echo "no such judge: {model}" >&2; exit 3`,
      pairs,
      model: 'x',
      rpm: 600,
    });
    expect(f.code).toBe(3);
    expect(f.calls).toBe(0);
    expect(f.stderrTail).toBe("no such judge: 'x'");
  });

  it('quotes placeholder values for the shell and refuses unknown ones', () => {
    expect(referenceCommand('run {data}', { data: "/tmp/it's here" })).toBe(`run '/tmp/it'\\''s here'`);
    expect(() => referenceCommand('run {pairs}', { data: 'x' })).toThrow(
      /unknown placeholder \{pairs\}.*\{data\}/,
    );
  });
});
