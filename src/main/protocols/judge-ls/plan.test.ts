import { describe, expect, it } from 'vitest';
import type { Item } from '../../../shared/domain';
import { taskKey } from '../types';
import { parseJudgeLsOptions } from './config';
import type { JudgeSpec, Variant } from './model';
import { planJudgments, planTransforms, type VariantLookup } from './plan';
import { PAIRWISE_VERDICT_SCHEMA } from '../../judging/pairwise';
import { LANGUAGE_VARIANT_SCHEMA, transformPromptHash } from './prompts';

const opts = parseJudgeLsOptions({});

function item(n: number, label: 1 | 2 = 1): Item {
  return {
    id: 100 + n,
    datasetId: 1,
    sourceId: `Natural-00${n}`,
    position: n,
    subset: n % 2 ? 'Natural' : 'Neighbor',
    instruction: `EN instruction ${n}`,
    output1: `EN first output ${n}`,
    output2: `EN second output ${n}`,
    label,
  };
}

function variantsFor(it: Item, languages: ('ZH' | 'LS')[] = ['ZH', 'LS']): Variant[] {
  return languages.map((language) => ({
    itemId: it.id,
    language,
    instruction: `${language} 指令 ${it.sourceId}`,
    output1: `${language} 回答一 ${it.sourceId}`,
    output2: `${language} 回答二 ${it.sourceId}`,
    manual: false,
  }));
}

const items = [item(1, 1), item(2, 2), item(3, 1)];
const variants = items.flatMap((i) => variantsFor(i));
const j1: JudgeSpec = { label: 'GPT-4.1 mini', provider: 'openai', model: 'gpt-4.1-mini' };
const j2: JudgeSpec = {
  label: 'Claude Haiku 4.5',
  provider: 'anthropic',
  model: 'claude-haiku-4-5',
  temperature: 0.3,
};
const transformer = { provider: 'openai', model: 'gpt-4.1-mini' };

describe('planTransforms', () => {
  it('plans one transform per item and target language with stable keys', () => {
    const tasks = planTransforms(items, opts, transformer);
    expect(tasks.map((t) => t.key)).toEqual([
      'transform:Natural-001:ZH',
      'transform:Natural-001:LS',
      'transform:Natural-002:ZH',
      'transform:Natural-002:LS',
      'transform:Natural-003:ZH',
      'transform:Natural-003:LS',
    ]);
    expect(planTransforms(items, opts, transformer)).toEqual(tasks);
    // A run's plan leaves out, unrendered, the transforms it has recorded.
    const recorded = new Set(tasks.slice(0, 4).map((t) => t.key));
    expect(planTransforms(items, opts, transformer, (k) => recorded.has(k))).toEqual(tasks.slice(4));
    // Items found with every transform recorded are settled, and skipped without their keys.
    const settled = new Set<string>();
    planTransforms(items, opts, transformer, (k) => recorded.has(k), settled);
    expect(settled).toEqual(new Set(['Natural-001', 'Natural-002']));
    const looked: string[] = [];
    const planned = (k: string) => {
      looked.push(k);
      return recorded.has(k);
    };
    expect(planTransforms(items, opts, transformer, planned, settled)).toEqual(tasks.slice(4));
    expect(looked).toEqual(['transform:Natural-003:ZH', 'transform:Natural-003:LS']);
  });

  it('builds the request from the item, the transformer and the options', () => {
    const [zh, ls] = planTransforms([items[1]], opts, transformer);
    expect(zh.stage).toBe('transform');
    expect(zh.request).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      temperature: 0,
      maxOutputTokens: 8192,
      response: LANGUAGE_VARIANT_SCHEMA,
    });
    expect(zh.request.messages).toHaveLength(1);
    const user = zh.request.messages[0].content;
    for (const text of ['EN instruction 2', 'EN first output 2', 'EN second output 2'])
      expect(user).toContain(text);
    expect(zh.request.system).toContain('Simplified Chinese');
    expect(ls.request.system).toContain('code-switching');
    expect(zh.meta).toEqual({
      itemId: 102,
      sourceId: 'Natural-002',
      language: 'ZH',
      promptHash: transformPromptHash(opts.templates, 'ZH'),
      source: {
        instruction: 'EN instruction 2',
        output1: 'EN first output 2',
        output2: 'EN second output 2',
      },
    });
    expect(ls.meta.promptHash).not.toBe(zh.meta.promptHash);
  });

  it('honours languages and the transformer overrides (the runner applies limit)', () => {
    const zhOnly = parseJudgeLsOptions({ languages: ['ZH'], limit: 2 });
    const tasks = planTransforms(items.slice(0, 2), zhOnly, {
      ...transformer,
      temperature: null,
      maxOutputTokens: 100,
    });
    expect(tasks.map((t) => t.key)).toEqual(['transform:Natural-001:ZH', 'transform:Natural-002:ZH']);
    expect(tasks[0].request).not.toHaveProperty('temperature');
    expect(tasks[0].request.maxOutputTokens).toBe(100);
    // Canonical language order whatever the options list.
    const reversed = parseJudgeLsOptions({ languages: ['LS', 'ZH'] });
    expect(planTransforms([items[0]], reversed, transformer).map((t) => t.meta.language)).toEqual([
      'ZH',
      'LS',
    ]);
  });

  it('refuses items that share a source id', () => {
    expect(() =>
      planTransforms([items[0], { ...items[1], sourceId: 'Natural-001' }], opts, transformer),
    ).toThrow(/share the source id "Natural-001"/);
  });
});

describe('planJudgments', () => {
  it('plans exactly 8 verdicts per item and judge', () => {
    const tasks = planJudgments(items, variants, [j1, j2], opts);
    expect(tasks).toHaveLength(items.length * 2 * 8);
    for (const judge of [j1, j2]) {
      for (const it of items) {
        const mine = tasks.filter((t) => t.meta.judge === judge.label && t.meta.itemId === it.id);
        expect(mine.map((t) => `${t.meta.kind} ${t.meta.language} ${t.meta.order}`)).toEqual([
          'quality EN orig',
          'quality EN swap',
          'quality ZH orig',
          'quality ZH swap',
          'quality LS orig',
          'quality LS swap',
          'tie_probe EN-ZH en_zh',
          'tie_probe EN-ZH zh_en',
        ]);
      }
    }
    expect(new Set(tasks.map((t) => t.key)).size).toBe(tasks.length);
    expect(tasks[0].key).toBe('judge:GPT-4.1 mini:Natural-001:quality:EN:orig');
    expect(tasks[6].key).toBe('judge:GPT-4.1 mini:Natural-001:tie_probe:EN-ZH:en_zh');
  });

  it('carries what a judgment row needs in the task meta', () => {
    const [t] = planJudgments([items[1]], variants, [j1], opts);
    expect(t.stage).toBe('judge');
    expect(t.meta).toEqual({
      judge: 'GPT-4.1 mini',
      itemId: 102,
      sourceId: 'Natural-002',
      subset: 'Neighbor',
      gold: 2,
      kind: 'quality',
      language: 'EN',
      order: 'orig',
    });
  });

  it('shows output_1 as A in orig and output_2 as A in swap, in the judged language', () => {
    const tasks = planJudgments([items[0]], variants, [j1], opts);
    const user = (i: number) => tasks[i].request.messages[0].content;
    const a = (s: string) => s.indexOf('<response_a>');
    const b = (s: string) => s.indexOf('<response_b>');
    // EN orig: output_1 sits in response A, output_2 in response B.
    expect(user(0).indexOf('EN first output 1')).toBeGreaterThan(a(user(0)));
    expect(user(0).indexOf('EN first output 1')).toBeLessThan(b(user(0)));
    expect(user(0).indexOf('EN second output 1')).toBeGreaterThan(b(user(0)));
    // EN swap: the other way round.
    expect(user(1).indexOf('EN second output 1')).toBeLessThan(b(user(1)));
    expect(user(1).indexOf('EN first output 1')).toBeGreaterThan(b(user(1)));
    // ZH orig uses the ZH variant throughout; LS swap the LS variant.
    expect(user(2)).toContain('ZH 指令 Natural-001');
    expect(user(2).indexOf('ZH 回答一 Natural-001')).toBeLessThan(b(user(2)));
    expect(user(2)).not.toContain('EN first output');
    expect(user(5).indexOf('LS 回答二 Natural-001')).toBeLessThan(b(user(5)));
    expect(tasks[0].request).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      temperature: 0,
      maxOutputTokens: 1024,
      response: PAIRWISE_VERDICT_SCHEMA,
    });
  });

  it('tie probes pit the gold output in English against its ZH translation, instruction in ZH', () => {
    // Item 2 has gold 2, so the probe uses output_2 in both languages.
    const tasks = planJudgments([items[1]], variants, [j2], opts);
    const [enZh, zhEn] = tasks.filter((t) => t.meta.kind === 'tie_probe');
    const b = (s: string) => s.indexOf('<response_b>');
    const u1 = enZh.request.messages[0].content;
    const u2 = zhEn.request.messages[0].content;
    for (const u of [u1, u2]) {
      expect(u).toContain('ZH 指令 Natural-002');
      expect(u).not.toContain('EN instruction 2');
      expect(u).not.toContain('first output');
      expect(u).not.toContain('回答一');
      expect(u).toContain('translation-equivalent');
    }
    expect(u1.indexOf('EN second output 2')).toBeLessThan(b(u1));
    expect(u1.indexOf('ZH 回答二 Natural-002')).toBeGreaterThan(b(u1));
    expect(u2.indexOf('ZH 回答二 Natural-002')).toBeLessThan(b(u2));
    expect(u2.indexOf('EN second output 2')).toBeGreaterThan(b(u2));
    expect(enZh.meta).toMatchObject({ kind: 'tie_probe', language: 'EN-ZH', order: 'en_zh', gold: 2 });
    expect(zhEn.meta.order).toBe('zh_en');
    expect(enZh.request.temperature).toBe(0.3); // the judge's own temperature
  });

  it('does not plan a language whose variant is missing', () => {
    const partial = [...variantsFor(items[0], ['ZH']), ...variantsFor(items[1], ['LS'])];
    const tasks = planJudgments(items, partial, [j1], opts);
    const of = (id: number) =>
      tasks.filter((t) => t.meta.itemId === id).map((t) => `${t.meta.language} ${t.meta.order}`);
    // Item 1 has ZH only: EN, ZH and the probes.
    expect(of(101)).toEqual(['EN orig', 'EN swap', 'ZH orig', 'ZH swap', 'EN-ZH en_zh', 'EN-ZH zh_en']);
    // Item 2 has LS only: no ZH, so no probes either.
    expect(of(102)).toEqual(['EN orig', 'EN swap', 'LS orig', 'LS swap']);
    // Item 3 has no variant: English only.
    expect(of(103)).toEqual(['EN orig', 'EN swap']);
  });

  it('plans no probes when they are off, and only the configured languages', () => {
    const noProbes = parseJudgeLsOptions({ tieProbes: false });
    expect(planJudgments(items, variants, [j1], noProbes)).toHaveLength(items.length * 6);
    const lsOnly = parseJudgeLsOptions({ languages: ['LS'], tieProbes: false });
    const tasks = planJudgments([items[0]], variants, [j1], lsOnly);
    expect(tasks.map((t) => t.meta.language)).toEqual(['EN', 'EN', 'LS', 'LS']);
  });

  it('is idempotent: re-planning, adding a judge or adding items only adds tasks', () => {
    const before = planJudgments(items.slice(0, 2), variants, [j1], opts);
    expect(planJudgments(items.slice(0, 2), variants, [j1], opts)).toEqual(before);

    const withJudge = planJudgments(items.slice(0, 2), variants, [j1, j2], opts);
    const oldKeys = new Set(before.map((t) => t.key));
    const byKey = new Map(withJudge.map((t) => [t.key, t]));
    for (const t of before) expect(byKey.get(t.key)).toEqual(t); // same key, same request
    const added = withJudge.filter((t) => !oldKeys.has(t.key));
    expect(added).toHaveLength(2 * 8);
    expect(added.every((t) => t.meta.judge === j2.label)).toBe(true);

    const withItem = planJudgments(items, variants, [j1], opts);
    const addedItems = withItem.filter((t) => !oldKeys.has(t.key));
    expect(addedItems).toHaveLength(8);
    expect(addedItems.every((t) => t.meta.sourceId === 'Natural-003')).toBe(true);
  });

  it('keeps keys unambiguous when a judge label contains ":" or "%"', () => {
    const odd: JudgeSpec = { label: 'local:llama 50%', provider: 'local', model: 'llama' };
    const [t] = planJudgments([items[0]], variants, [odd], opts);
    expect(t.key).toBe('judge:local%3Allama 50%25:Natural-001:quality:EN:orig');
    expect(taskKey('a:b', 'c')).not.toBe(taskKey('a', 'b:c'));
  });

  it('refuses duplicate judge labels and duplicate variants', () => {
    expect(() => planJudgments(items, variants, [j1, { ...j2, label: j1.label }], opts)).toThrow(
      /Two judges share the label "GPT-4.1 mini"/,
    );
    expect(() => planJudgments(items, [...variants, variants[0]], [j1], opts)).toThrow(
      /Two ZH variants for item id 101/,
    );
  });

  // A run's plans while answers arrive (issue 39): only tasks not recorded yet are rendered, and
  // only their variants' texts are read.
  describe('incremental plans (PlanContext)', () => {
    /** The variants as a run's plan reads them, counting whose texts were read. */
    function counting(vs: readonly Variant[]) {
      const reads: string[] = [];
      const lookup: VariantLookup = {
        has: (id, l) => vs.some((v) => v.itemId === id && v.language === l),
        get: (id, l) => {
          reads.push(`${id}:${l}`);
          return vs.find((v) => v.itemId === id && v.language === l);
        },
      };
      return { lookup, reads };
    }

    it('plans from a lookup exactly what it plans from the list, leaving recorded tasks out', () => {
      const partial = [...variantsFor(items[0]), ...variantsFor(items[1], ['LS'])];
      const whole = planJudgments(items, partial, [j1, j2], opts);
      const recorded = new Set(whole.filter((_, i) => i % 3 === 0).map((t) => t.key));
      const planned = (k: string) => recorded.has(k);
      const { lookup } = counting(partial);
      expect(planJudgments(items, lookup, [j1, j2], opts, planned)).toEqual(
        planJudgments(items, partial, [j1, j2], opts, planned),
      );
      expect(planJudgments(items, lookup, [j1, j2], opts, planned)).toEqual(
        whole.filter((t) => !recorded.has(t.key)),
      );
    });

    it('reads the texts only of variants with a task still to render', () => {
      const first = planJudgments(items, variants, [j1, j2], opts);
      // Everything of items 1 and 2 recorded; item 3's LS verdicts not yet.
      const recorded = new Set(
        first.filter((t) => t.meta.sourceId !== 'Natural-003' || t.meta.language !== 'LS').map((t) => t.key),
      );
      const { lookup, reads } = counting(variants);
      const tasks = planJudgments(items, lookup, [j1, j2], opts, (k) => recorded.has(k));
      expect(tasks.map((t) => `${t.meta.judge} ${t.meta.language} ${t.meta.order}`)).toEqual([
        'GPT-4.1 mini LS orig',
        'GPT-4.1 mini LS swap',
        'Claude Haiku 4.5 LS orig',
        'Claude Haiku 4.5 LS swap',
      ]);
      expect(new Set(reads)).toEqual(new Set(['103:LS']));
    });

    it('settles an item once every verdict is recorded and every translation stored, then skips it', () => {
      const partial = [...variantsFor(items[0]), ...variantsFor(items[1], ['ZH'])];
      const first = planJudgments(items, partial, [j1], opts);
      // One verdict of item 1 not recorded yet: rendered now, and item 1 not settled by this plan
      // (only found recorded later: a plan whose tasks fail to be recorded must plan them again).
      const recorded = new Set(first.slice(1).map((t) => t.key));
      const settled = new Set<string>();
      const fresh = planJudgments(items, partial, [j1], opts, (k) => recorded.has(k), settled);
      expect(fresh).toEqual([first[0]]);
      expect(settled).toEqual(new Set());
      recorded.add(first[0].key);
      const looked: string[] = [];
      const planned = (k: string) => {
        looked.push(k);
        return recorded.has(k);
      };
      expect(planJudgments(items, partial, [j1], opts, planned, settled)).toEqual([]);
      // Item 1 has both translations, all recorded: settled. Item 2 waits for LS, item 3 for both.
      expect(settled).toEqual(new Set(['Natural-001']));
      looked.length = 0;
      // Its LS arrives: item 2 is planned again (item 1 is not even looked at).
      const more = [...partial, ...variantsFor(items[1], ['LS'])];
      const tasks = planJudgments(items, more, [j1], opts, planned, settled);
      expect(looked.some((k) => k.includes('Natural-001'))).toBe(false);
      expect(tasks.map((t) => `${t.meta.sourceId} ${t.meta.language} ${t.meta.order}`)).toEqual([
        'Natural-002 LS orig',
        'Natural-002 LS swap',
      ]);
      expect(settled.has('Natural-002')).toBe(false);
    });
  });
});
