// Issue 32 item 11: methods.md says what happened. A run whose answers were read from a recorded
// file made no call and paid for none; a call asked again after a server error is not a "parse
// re-ask". Both languages.
import { describe, expect, it } from 'vitest';
import type { MethodsFacts, MethodsModel } from '../../src/main/paper/methods-facts';
import { METHODS_WORDS } from '../../src/main/paper/methods-text';
import { col, withMethod, type Table } from '../../src/shared/report/table';

const model = (providerKind: string, paid: boolean): MethodsModel => ({
  role: 'judge',
  label: 'GPT judge',
  providerKind,
  model: 'gpt-4.1-mini',
  temperatures: [0],
  firstAnswer: '2026-01-01T00:00:00Z',
  lastAnswer: '2026-01-01T00:01:00Z',
  calls: 60,
  cacheHits: 0,
  costUsd: 0,
  paid,
});

function facts(models: MethodsModel[]): MethodsFacts {
  const calls = models.reduce((s, m) => s + m.calls, 0);
  return {
    experiment: { id: 1, name: 'x', protocol: 'judge-ls', title: 'Judge-LS' },
    simulated: false,
    recorded: models.some((m) => m.providerKind === 'recorded'),
    dataset: {
      name: 'd',
      sourceFile: 'd.jsonl',
      format: 'jsonl',
      sha256: 'ab',
      total: 10,
      used: 10,
      license: null,
    },
    sampling: { limit: null, sample: 'first', seed: null, subsets: null },
    models,
    prompts: [],
    tasks: { planned: 60, ok: 60, failed: 0, pending: 0 },
    calls,
    cacheHits: 0,
    paidCalls: models.reduce((s, m) => s + (m.paid ? m.calls : 0), 0),
    failures: [],
    reasked: { answers: 3, extraAsks: 4 },
    maxParseRetries: 2,
    flagged: 0,
    costUsd: 0,
  };
}

describe('methods.md words', () => {
  it('a recorded run: no call paid, the answers read from the file', () => {
    const f = facts([model('recorded', false)]);
    const en = METHODS_WORDS.en;
    expect(en.modelLine(f.models[0])).toContain('60 answers read from the recorded file (no call made)');
    expect(en.modelLine(f.models[0])).not.toMatch(/paid/);
    expect(en.callsText(f)).toContain(
      'No provider call was made or paid: 60 answers were read from recorded files',
    );
    expect(en.callsText(f)).not.toMatch(/paid for 60/);
    const zh = METHODS_WORDS.zh;
    expect(zh.modelLine(f.models[0])).toContain('从录制文件读取回答 60 个');
    expect(zh.modelLine(f.models[0])).not.toContain('付费调用');
    expect(zh.callsText(f)).toContain('未调用也未付费调用任何提供方');
  });

  it('a live run: calls paid as before', () => {
    const f = facts([model('openai', true)]);
    expect(METHODS_WORDS.en.modelLine(f.models[0])).toContain('60 calls paid, 0 answers reused.');
    expect(METHODS_WORDS.en.callsText(f)).toContain(
      'The experiment paid for 60 provider calls; 0 answers were reused',
    );
  });

  it('asks again for passing provider failures as well as unparseable answers, and says so', () => {
    const text = METHODS_WORDS.en.callsText(facts([model('openai', true)]));
    expect(text).toContain('a server error, a time-out, a rate limit');
    expect(text).toContain('3 answers needed more than one ask (4 extra asks)');
    expect(text).not.toMatch(/could not be parsed was asked again/);
    expect(METHODS_WORDS.zh.callsText(facts([model('openai', true)]))).toContain('服务器错误、超时、限流');
  });

  it('names each interval as the CSV does and does not repeat a method the header says', () => {
    const table: Table = {
      id: 't',
      title: 'Noise floor',
      caption: 'Caption.',
      columns: [
        col('flip_rate', 'Flip', 'pct'),
        withMethod(col('flip_rate_ci', 'Flip 95% CI', 'ci'), 'Wilson'),
        withMethod(col('p_holm', 'Holm p', 'p'), 'Holm'),
      ],
      rows: [],
    };
    const line = METHODS_WORDS.en.tableLine(table);
    expect(line).toBe('Noise floor: Caption. Intervals: Flip 95% CI: Wilson.');
    expect(line).not.toContain('Holm p: Holm');
  });
});
