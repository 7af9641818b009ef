import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PAIRWISE_VERDICT_SCHEMA } from '../../judging/pairwise';
import { checkTemplate, renderTemplate, templatePlaceholders } from '../../judging/template';
import { promptHash } from '../types';
import { parseJudgeLsOptions } from './config';
import {
  DEFAULT_TEMPLATES,
  LANGUAGE_VARIANT_SCHEMA,
  renderJudgePrompt,
  renderTieProbePrompt,
  renderTransformPrompt,
  transformPromptHash,
} from './prompts';

const english = {
  instruction: 'List three prime numbers greater than 10.',
  output1: '11, 13, 15',
  output2: '11, 13, 17 — and {{output_2}} stays literal',
};

describe('renderTemplate', () => {
  it('fills placeholders in one pass, so values are never expanded again', () => {
    expect(renderTemplate('[{{a}}] [{{ b }}] [{{a}}]', { a: '{{b}}', b: 'x' })).toBe('[{{b}}] [x] [{{b}}]');
  });

  it('refuses a placeholder without a value', () => {
    expect(() => renderTemplate('Hi {{name}}', {})).toThrow(
      'Prompt template uses {{name}}, which has no value here',
    );
  });

  it('lists and checks placeholders', () => {
    expect(templatePlaceholders('{{a}} {{b}} {{a}}')).toEqual(['a', 'b']);
    expect(checkTemplate('{{a}} {{c}}', ['a', 'b'], ['a', 'b'])).toEqual([
      'unknown placeholder {{c}} (allowed: {{a}}, {{b}})',
      'missing placeholder {{b}}',
    ]);
  });
});

describe('transform prompt', () => {
  it('contains the English texts and demands faithful, mistake-preserving rewriting', () => {
    const p = renderTransformPrompt(DEFAULT_TEMPLATES, 'ZH', english);
    expect(p.user).toContain(english.instruction);
    expect(p.user).toContain(english.output1);
    expect(p.user).toContain(english.output2);
    expect(p.system).toContain('Simplified Chinese');
    expect(p.system).toContain(DEFAULT_TEMPLATES.languageRules.ZH);
    expect(p.system).toMatch(/Preserve EVERY mistake/);
    expect(p.system).toMatch(/never fix them, never improve/);
    expect(p.system).toMatch(/never shorten/);
    expect(p.system).toMatch(/output_1 and output_2 aligned/);
    expect(p.system).toMatch(/code, numbers, units, formulas, URLs/);
    expect(p.system).toContain('language_variant');
  });

  it('asks for code-switching that keeps task terms and names in English for LS', () => {
    const p = renderTransformPrompt(DEFAULT_TEMPLATES, 'LS', english);
    expect(p.system).toContain('Chinese-English code-switching');
    expect(p.system).toContain(DEFAULT_TEMPLATES.languageRules.LS);
    expect(DEFAULT_TEMPLATES.languageRules.LS).toMatch(/task terms.*names.*stay in English/);
    expect(p.system).not.toBe(renderTransformPrompt(DEFAULT_TEMPLATES, 'ZH', english).system);
  });
});

describe('judge prompts', () => {
  const texts = { instruction: '列出三个质数', outputA: 'RESPONSE-ONE', outputB: 'RESPONSE-TWO' };

  it('shows the instruction and both responses, with the LLMBar-style rules', () => {
    const p = renderJudgePrompt(DEFAULT_TEMPLATES, texts);
    expect(p.system).toBe(DEFAULT_TEMPLATES.judgeSystem);
    expect(p.user).toContain(texts.instruction);
    expect(p.user.indexOf('RESPONSE-ONE')).toBeLessThan(p.user.indexOf('RESPONSE-TWO'));
    expect(p.user).toMatch(/honestly, precisely and closely/);
    expect(p.user).toMatch(/neither more nor less than the instruction asks/);
    expect(p.user).toMatch(/wins, even if the other one is longer, more polished/);
    expect(p.user).toMatch(
      /Do not favour a response for its language, length or format unless the instruction/,
    );
    expect(p.user).toContain('pairwise_verdict');
  });

  it('tells the tie probe that the responses are translations and a tie is expected if equally useful', () => {
    const p = renderTieProbePrompt(DEFAULT_TEMPLATES, texts);
    expect(p.user).toContain(texts.instruction);
    expect(p.user).toContain('RESPONSE-ONE');
    expect(p.user).toContain('RESPONSE-TWO');
    expect(p.user).toMatch(/translation-equivalent/);
    expect(p.user).toMatch(/If they are equally useful for the instruction, answer "tie"/);
  });

  it("names the probed language: ZH's probe as before, another target's with its own name", () => {
    const zh = renderTieProbePrompt(DEFAULT_TEMPLATES, texts, 'ZH');
    expect(zh).toEqual(renderTieProbePrompt(DEFAULT_TEMPLATES, texts));
    expect(zh.user).toContain('once written in English and once in Chinese.');
    const ar = renderTieProbePrompt(DEFAULT_TEMPLATES, texts, 'ar');
    expect(ar.user).toContain('once written in English and once in Arabic.');
    expect(ar.user.replace('in Arabic.', 'in Chinese.')).toBe(zh.user);
    // An edited template may name the language itself.
    const own = {
      ...DEFAULT_TEMPLATES,
      tieProbeUser: '{{target_language}}: {{instruction}} {{output_a}} {{output_b}}',
    };
    expect(renderTieProbePrompt(own, texts, 'hi').user).toMatch(/^Hindi: /);
    expect(
      parseJudgeLsOptions({ templates: { tieProbeUser: own.tieProbeUser } }).templates.tieProbeUser,
    ).toBe(own.tieProbeUser);
  });

  it('renders edited templates from the options', () => {
    const o = parseJudgeLsOptions({
      templates: { judgeUser: 'Q: {{instruction}}\nA: {{output_a}}\nB: {{output_b}}' },
    });
    expect(renderJudgePrompt(o.templates, texts).user).toBe(
      'Q: 列出三个质数\nA: RESPONSE-ONE\nB: RESPONSE-TWO',
    );
    expect(o.templates.tieProbeUser).toBe(DEFAULT_TEMPLATES.tieProbeUser);
  });
});

describe('template options', () => {
  it('defaults to the exported templates', () => {
    expect(parseJudgeLsOptions({}).templates).toEqual(DEFAULT_TEMPLATES);
  });

  it('names bad placeholders and missing required ones', () => {
    expect(() =>
      parseJudgeLsOptions({ templates: { judgeUser: '{{instruction}} {{output_a}} {{outptu_b}}' } }),
    ).toThrow(
      /templates\.judgeUser: unknown placeholder \{\{outptu_b\}\}.*templates\.judgeUser: missing placeholder \{\{output_b\}\}/,
    );
    expect(() =>
      parseJudgeLsOptions({
        templates: {
          transformSystem: 'Translate.',
          transformUser: '{{instruction}} {{output_1}} {{output_2}}',
        },
      }),
    ).toThrow(/must use \{\{language_rules\}\} or \{\{target_language\}\}/);
  });

  it('rejects unknown keys and tie probes without a translated target', () => {
    expect(() => parseJudgeLsOptions({ langauges: ['ZH'] })).toThrow(/Unrecognized key: "langauges"/);
    // Code-switched targets only: nothing to probe against.
    for (const languages of [['LS'], ['LS', 'LS:ar', 'LS:hi@50']])
      expect(() => parseJudgeLsOptions({ languages })).toThrow(
        /tieProbes: tie probes compare English with a translation, and every listed language is code-switched/,
      );
    // Any plain language code is a translation to probe (issue 37), ZH or not.
    expect(parseJudgeLsOptions({ languages: ['ar', 'LS:ar'] }).tieProbes).toBe(true);
    expect(parseJudgeLsOptions({ languages: ['LS'], tieProbes: false }).languages).toEqual(['LS']);
    expect(() => parseJudgeLsOptions({ languages: ['ZH', 'ZH'] })).toThrow(/languages must not repeat/);
  });
});

describe('prompt hash', () => {
  it('is the sha256 of the template text', () => {
    expect(promptHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const t = DEFAULT_TEMPLATES;
    const expected = createHash('sha256')
      .update(JSON.stringify([t.transformSystem, t.languageRules.ZH, t.transformUser]))
      .digest('hex');
    expect(transformPromptHash(t, 'ZH')).toBe(expected);
  });

  it('changes with the language and with any edit of the templates', () => {
    const t = DEFAULT_TEMPLATES;
    expect(transformPromptHash(t, 'ZH')).not.toBe(transformPromptHash(t, 'LS'));
    expect(transformPromptHash({ ...t, transformUser: t.transformUser + ' ' }, 'ZH')).not.toBe(
      transformPromptHash(t, 'ZH'),
    );
    expect(transformPromptHash({ ...t, languageRules: { ...t.languageRules, LS: 'x' } }, 'ZH')).toBe(
      transformPromptHash(t, 'ZH'),
    );
  });
});

describe('answer schemas', () => {
  it.each([
    [LANGUAGE_VARIANT_SCHEMA, 'language_variant', ['instruction', 'output_1', 'output_2']],
    [PAIRWISE_VERDICT_SCHEMA, 'pairwise_verdict', ['winner', 'confidence', 'reason']],
  ])('%# is strict: every property required, none additional', (rs, name, props) => {
    expect(rs.name).toBe(name);
    const s = rs.schema as {
      type: string;
      properties: Record<string, { type: string }>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(s.type).toBe('object');
    expect(Object.keys(s.properties)).toEqual(props);
    expect(s.required).toEqual(props);
    expect(s.additionalProperties).toBe(false);
  });

  it('types the fields per the wire contract', () => {
    const v = LANGUAGE_VARIANT_SCHEMA.schema as { properties: Record<string, { type: string }> };
    expect(Object.values(v.properties).map((p) => p.type)).toEqual(['string', 'string', 'string']);
    const p = PAIRWISE_VERDICT_SCHEMA.schema as {
      properties: Record<string, { type: string; enum?: string[] }>;
    };
    expect(p.properties.winner).toMatchObject({ type: 'string', enum: ['A', 'B', 'tie'] });
    expect(p.properties.confidence.type).toBe('number');
    expect(p.properties.reason.type).toBe('string');
  });
});

describe('target languages beyond ZH and LS (issue 37)', () => {
  const english = { instruction: 'Say hi.', output1: 'Hi.', output2: 'Hello.' };
  it('names the target and writes its rules from the code', () => {
    const ar = renderTransformPrompt(DEFAULT_TEMPLATES, 'ar', english);
    expect(ar.system).toContain('Target language: Arabic (ar)');
    expect(ar.system).toContain('Write natural Arabic,');
    expect(ar.user).toContain('Rewrite the following in Arabic (ar).');
    const ls = renderTransformPrompt(DEFAULT_TEMPLATES, 'LS:hi', english);
    expect(ls.system).toContain('Target language: Hindi-English code-switching (LS:hi)');
    expect(ls.system).toContain('Hindi carries the sentences');
  });
  it('accepts codes and LS:<code> in the options, and rejects unknown ones by name', () => {
    expect(parseJudgeLsOptions({ languages: ['ZH', 'ar', 'LS:te'], tieProbes: true }).languages).toEqual([
      'ZH',
      'ar',
      'LS:te',
    ]);
    expect(() => parseJudgeLsOptions({ languages: ['xx'], tieProbes: false })).toThrow(
      /unknown language "xx"/,
    );
    expect(() => parseJudgeLsOptions({ languages: ['LS:xx'], tieProbes: false })).toThrow(/unknown language/);
    // The defaults stay ZH and LS, and no back-translation without `verify`.
    const d = parseJudgeLsOptions({});
    expect(d.languages).toEqual(['ZH', 'LS']);
    expect(d.verify).toBeUndefined();
    expect(parseJudgeLsOptions({ verify: { provider: 'p', model: 'm' } }).verify).toEqual({
      provider: 'p',
      model: 'm',
      minChrf: 40,
      llmVerdict: false,
    });
  });
});
