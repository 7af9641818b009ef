// Token counts for estimates and TPM budgets: the same as the tokenizer's, counted once per text,
// and a text that contains a special token's spelling is counted, not refused.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens, decode, encode } from 'gpt-tokenizer';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cacheablePrefixTokens,
  countByLines,
  countByWords,
  estimateInputTokens,
  planTokenCounter,
} from '../../src/main/providers/tokens';
import type { ChatRequestSpec } from '../../src/main/providers/types';
import {
  countsApart,
  estimateDone,
  keepTokenizerBetweenEstimates,
  leanTokenizer,
  releaseTokenizerAfterEstimates,
  tokenizerLoaded,
} from '../../src/main/providers/sdk';
import { createRequire } from 'node:module';

const spec = (user: string): ChatRequestSpec => ({
  provider: 'p',
  model: 'm',
  system: 'You are a careful judge. Answer in JSON.',
  messages: [{ role: 'user', content: user }],
  response: { name: 'verdict', schema: { type: 'object', properties: { winner: { type: 'string' } } } },
});

describe('input token estimate', () => {
  it("is the tokenizer's count plus the per-message framing, again and again", () => {
    const s = spec('Which answer follows the instruction better? 哪个回答更好？');
    const expected =
      encode(s.system!).length +
      4 +
      encode(s.messages[0].content).length +
      4 +
      encode(JSON.stringify(s.response!.schema)).length;
    expect(estimateInputTokens(s)).toBe(expected);
    expect(estimateInputTokens(s)).toBe(expected);
  });

  it("is the tokenizer's count for long texts too, which it sums word by word (their words known or not)", () => {
    const texts = readFileSync(join(process.cwd(), 'resources', 'samples', 'llmbar.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .slice(0, 60)
      .flatMap((l) => Object.values(JSON.parse(l) as Record<string, unknown>))
      .filter((v): v is string => typeof v === 'string' && v.length > 64);
    expect(texts.length).toBeGreaterThan(100);
    const framing = estimateInputTokens(spec('')) - encode('').length;
    // Twice: the first time with new words, then with every word known (a new text of known words).
    for (const suffix of ['', '\nAgain, counted anew.'])
      for (const text of texts) {
        const t = text + suffix;
        expect(estimateInputTokens(spec(t)), t.slice(0, 60)).toBe(
          framing + countTokens(t, { disallowedSpecial: new Set() }),
        );
      }
  });

  it('counts a dataset text that spells a special token instead of throwing', () => {
    const s = spec('The model printed <|endoftext|> and stopped.');
    expect(() => encode(s.messages[0].content)).toThrow(/special token/);
    expect(estimateInputTokens(s)).toBeGreaterThan(
      estimateInputTokens(spec('The model printed and stopped.')),
    );
  });
});

describe('counting a text by its words and lines', () => {
  const count = (text: string) => countTokens(text, { disallowedSpecial: new Set<string>() });
  // By lines, by words, and by the words of each line (what a plan's counter does).
  const sums = (text: string) => [
    countByLines(text, count),
    countByWords(text, count),
    countByLines(text, (line) => countByWords(line, count)),
  ];
  const strings = (v: unknown): string[] =>
    typeof v === 'string'
      ? [v]
      : Array.isArray(v)
        ? v.flatMap(strings)
        : v && typeof v === 'object'
          ? Object.values(v).flatMap(strings)
          : [];

  it("is the whole text's count on every text of the bundled samples, alone and joined", () => {
    const dir = join(process.cwd(), 'resources', 'samples');
    let texts = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
      const lines = readFileSync(join(dir, file), 'utf8').split('\n');
      const values = lines.filter((l) => l.trim()).flatMap((l) => strings(JSON.parse(l)));
      const joined = [
        ...values,
        ...[':\n', '\n\n', '.\n/', '\r\n'].map((sep) => values.slice(0, 300).join(sep)),
        lines.slice(0, 200).join('\n'),
      ];
      for (const text of joined) expect(sums(text), text.slice(0, 80)).toEqual(Array(3).fill(count(text)));
      texts += joined.length;
    }
    expect(texts).toBeGreaterThan(1000);
  });

  it('keeps a line break with the "/" after it, which o200k reads as one piece with the punctuation before', () => {
    const naive = (text: string) => text.split(/(?<=\n)/).reduce((n, l) => n + count(l), 0);
    for (const text of [
      'See:\n/usr/bin',
      'end.\n\n//comment',
      'a\r\n/b',
      'x\n',
      '\n',
      '',
      '  \n  y',
      'a <|endoftext|>\nb',
    ]) {
      expect(sums(text), JSON.stringify(text)).toEqual(Array(3).fill(count(text)));
    }
    // Short texts of the characters that decide the cuts (breaks, white space, "/", punctuation),
    // drawn by a fixed generator: 300,000 of them agreed when this was written.
    const chars = [
      ' ',
      ' ',
      'x',
      "'s",
      '\u3000',
      ' ',
      '\n',
      '\r',
      '\t',
      '/',
      ':',
      '.',
      'a',
      'A',
      '1',
      "'",
      's',
      '\u2028',
      '\u00a0',
      '中',
      '😀',
      '#',
      '\u0301',
      '\v',
    ];
    let seed = 1;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let k = 0; k < 20_000; k++) {
      let text = '';
      for (let i = 1 + Math.floor(next() * 24); i > 0; i--) text += chars[Math.floor(next() * chars.length)];
      expect(sums(text), JSON.stringify(text)).toEqual(Array(3).fill(count(text)));
    }
    // Cutting after every break would miscount: the rule matters.
    expect(naive('a.\n//x')).not.toBe(count('a.\n//x'));
  });

  it("is the package's own o200k tokenizer, its ranks read as JSON from this version's layout", () => {
    const lean = leanTokenizer(createRequire(import.meta.url));
    expect(lean).toBeDefined();
    const asText = { disallowedSpecial: new Set<string>() };
    const dir = join(process.cwd(), 'resources', 'samples');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
      const text = readFileSync(join(dir, file), 'utf8').slice(0, 20_000);
      expect(lean!.countTokens(text, asText), file).toBe(countTokens(text, asText));
    }
    // Every rank where the package has it (the two literals read in order, none dropped).
    const { decode: leanDecode } = lean as unknown as { decode: (tokens: number[]) => string };
    for (let rank = 0; rank < 199_998; rank += 613)
      expect(leanDecode([rank]), String(rank)).toBe(decode([rank]));
    expect(leanDecode([199_997])).toBe(decode([199_997]));
  });

  it("gives a plan's counter the same counts as the one-request functions", () => {
    const counter = planTokenCounter();
    const s = spec('Question (English):\nWho?\n\nGenerated answer:\n/path\nKing George VI');
    expect(counter.input(s)).toBe(estimateInputTokens(s));
    expect(counter.input(s)).toBe(estimateInputTokens(s));
    expect(counter.prefix(s)).toBe(cacheablePrefixTokens(s));
  });
});

// Last in this file: the one-study switch below stays on for the rest of the file, and is undone
// after it (the files after this one share its process).
afterAll(() => keepTokenizerBetweenEstimates());
describe('the tokenizer after an estimate (issue 39)', () => {
  it('stays loaded in a process that runs many studies, and goes in one that runs one study, its counts kept', () => {
    const counted = spec('A text the estimate counts before the tables go.');
    const n = estimateInputTokens(counted);
    estimateDone();
    expect(tokenizerLoaded()).toBe(true);
    releaseTokenizerAfterEstimates();
    estimateDone();
    expect(tokenizerLoaded()).toBe(false);
    // Counted texts are not counted again: no tables loaded for them.
    expect(estimateInputTokens(counted)).toBe(n);
    expect(tokenizerLoaded()).toBe(false);
    // A new text loads them again, and is counted as the tokenizer counts it.
    const fresh = 'Ein neuer Text, nach der Freigabe gezählt.';
    expect(estimateInputTokens(spec(fresh))).toBe(
      estimateInputTokens(counted) - countTokens(counted.messages[0].content) + countTokens(fresh),
    );
    expect(tokenizerLoaded()).toBe(true);
  });
});

// After the one-study switch above (it stays on): the plan's words are counted by a worker thread.
describe("a one-study process's estimate counts in a worker (issue 39)", () => {
  it('never loads the tables in this thread, and counts as the tokenizer does', () => {
    estimateDone();
    expect(tokenizerLoaded()).toBe(false);
    const specs = [
      spec('Zählt ein Arbeiter diese Wörter?\n\n  Antwort A: ja\n/pfad\nAntwort B: 不是 <|endoftext|>'),
      spec('Une phrase que personne n’a comptée encore, avec   des espaces\r\net des sauts.'),
    ];
    const counter = planTokenCounter();
    counter.precount(specs);
    const expected = (s: ChatRequestSpec) =>
      countTokens(s.system!, { disallowedSpecial: new Set() }) +
      4 +
      countTokens(s.messages[0].content, { disallowedSpecial: new Set() }) +
      4 +
      countTokens(JSON.stringify(s.response!.schema));
    for (const s of specs) expect(counter.input(s)).toBe(expected(s));
    expect(counter.prefix(specs[0])).toBe(cacheablePrefixTokens(specs[0]));
    expect(tokenizerLoaded()).toBe(false);
  });
});

// After the worker's: the switch undone, as the files after this one need it.
describe('a process back to running many studies', () => {
  it('counts here and keeps the tables after an estimate', () => {
    keepTokenizerBetweenEstimates();
    expect(countsApart()).toBe(false);
    const s = spec('Ein Text nach dem Zurückschalten, hier gezählt und behalten.');
    expect(estimateInputTokens(s)).toBe(
      countTokens(s.system!, { disallowedSpecial: new Set() }) +
        4 +
        countTokens(s.messages[0].content, { disallowedSpecial: new Set() }) +
        4 +
        countTokens(JSON.stringify(s.response!.schema)),
    );
    expect(tokenizerLoaded()).toBe(true);
    estimateDone();
    expect(tokenizerLoaded()).toBe(true);
  });
});
