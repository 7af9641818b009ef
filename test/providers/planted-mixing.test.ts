// Code-switching at a mixing ratio (issue 37, dose–response): the ratio asked for in the options
// (LS:<code>@<0–100>), the prompt that asks for it, the ratio measured on a text
// (shared/text/mixing.ts), and the simulated translator and `-mix<NN>` judge that honour it.
import { describe, expect, it } from 'vitest';
import { parseJudgeLsOptions } from '../../src/main/protocols/judge-ls/config';
import { DEFAULT_TEMPLATES, renderTransformPrompt } from '../../src/main/protocols/judge-ls/prompts';
import { languageInfo, mixingOf } from '../../src/shared/protocols/judge-ls/languages';
import { contentWords, mixingCount, mixingRatio } from '../../src/shared/text/mixing';
import { plantedMixing, shownMixingRatio } from '../../src/main/providers/simulated/planted-mixing';
import { askedMixing, mixedTexts } from '../../src/main/providers/simulated/mixed-translation';

const english = {
  instruction: 'Write a short note to the team about the product launch next Monday, in three sentences.',
  output1:
    'Hello team! Our new product launches next Monday at 9:00. Please check the release notes at https://example.org/notes and send questions to Maria before Friday.',
  output2:
    'The launch is Monday. Everyone should prepare the demo, review the pricing page and tell customers about the improved search feature.',
};
const fields = [english.instruction, english.output1, english.output2];

describe('a target at a mixing ratio in the options', () => {
  it('takes LS:<code>@<0–100> and says what to write for a wrong one, naming the field', () => {
    expect(
      parseJudgeLsOptions({ languages: ['LS:hi@0', 'LS:hi@50', 'LS:hi@100'], tieProbes: false }).languages,
    ).toEqual(['LS:hi@0', 'LS:hi@50', 'LS:hi@100']);
    expect(mixingOf('LS:zh@25')).toEqual({ series: 'LS:zh', ratio: 0.25, percent: 25 });
    const bad = (l: string) => () => parseJudgeLsOptions({ languages: [l], tieProbes: false });
    expect(bad('LS:hi@150')).toThrow(
      /languages\.0: "LS:hi@150": the mixing ratio must be a whole percentage from 0 to 100/,
    );
    expect(bad('LS:hi@07')).toThrow(/whole percentage/);
    expect(bad('LS:hi@')).toThrow(/whole percentage/);
    expect(bad('hi@25')).toThrow(/a mixing ratio needs a code-switched target; write LS:hi@25/);
    expect(bad('LS@25')).toThrow(/LS keeps its own prompt and takes no mixing ratio; write LS:zh@25/);
    expect(bad('LS:xx@25')).toThrow(/unknown language "LS:xx@25"/);
    // Plain LS:<code> and ZH/LS keep their meaning.
    expect(mixingOf('LS:hi')).toBeNull();
    expect(mixingOf('LS')).toBeNull();
  });

  it('asks for the ratio in the transform prompt, in words the simulated provider reads back', () => {
    const p = renderTransformPrompt(DEFAULT_TEMPLATES, 'LS:hi@25', english);
    expect(p.system).toContain('Target language: Hindi-English code-switching, about 25% Hindi (LS:hi@25)');
    expect(p.system).toContain('about 25% of the content words in Hindi');
    expect(askedMixing(p.system)).toEqual({ ratio: 0.25, code: 'hi' });
    expect(askedMixing(renderTransformPrompt(DEFAULT_TEMPLATES, 'LS:es@0', english).system)).toEqual({
      ratio: 0,
      code: 'es',
    });
    expect(askedMixing(renderTransformPrompt(DEFAULT_TEMPLATES, 'LS:zh@100', english).system)).toEqual({
      ratio: 1,
      code: 'zh',
    });
    // No ratio asked for: plain code-switching and ZH/LS prompts are as before.
    expect(askedMixing(renderTransformPrompt(DEFAULT_TEMPLATES, 'LS:hi', english).system)).toBeNull();
    expect(askedMixing(renderTransformPrompt(DEFAULT_TEMPLATES, 'LS', english).system)).toBeNull();
  });
});

describe('the mixing ratio measured on a text', () => {
  it('counts content words by script, leaving numbers, code, URLs and e-mails out', () => {
    expect(contentWords('Call 555 or see https://x.org/a and `code()` a.b@c.org now')).toEqual([
      'Call',
      'or',
      'see',
      'and',
      'now',
    ]);
    const hi = languageInfo('LS:hi')!;
    expect(mixingCount(['मैं आज market गया, 25 apples खरीदे'], [], hi)).toEqual({ words: 6, target_words: 4 });
    // Chinese has no spaces: ICU's dictionary cuts it into words.
    expect(mixingCount(['我们使用 code-switching 来写'], [], languageInfo('LS:zh')!)).toEqual({
      words: 6,
      target_words: 4,
    });
  });

  it('for a Latin-script language, counts the words the English source does not have', () => {
    const es = languageInfo('LS:es')!;
    const c = mixingCount(['Hola team, el launch es el Monday'], ['Hello team, the launch is on Monday'], es);
    expect(c).toEqual({ words: 7, target_words: 4 });
    expect(mixingRatio(c)).toBeCloseTo(4 / 7, 12);
    expect(mixingRatio({ words: 0, target_words: 0 })).toBeNull();
  });
});

describe('the simulated translator honours the ratio; the -mix judge plants flips that grow with it', () => {
  it.each(['hi', 'ar', 'te', 'es', 'zh'])(
    '%s: measured ratio near each asked one; at 0 the English itself',
    (code) => {
      const info = languageInfo(`LS:${code}`)!;
      for (const asked of [0, 0.25, 0.5, 0.75, 1]) {
        const texts = mixedTexts(fields, asked, code);
        const measured = mixingRatio(mixingCount(texts, fields, info))!;
        // Within about one word type of the ask (the texts have ~45 word types).
        expect(Math.abs(measured - asked), `${code} @ ${asked}: ${measured}`).toBeLessThan(0.08);
        if (asked === 0) expect(texts).toEqual(fields);
        // Numbers and URLs stay as written; the same word is written alike in every text.
        expect(texts[1]).toContain('https://example.org/notes');
        expect(texts[1]).toContain('9:00');
      }
    },
  );

  it('the judge reads the ratio it is shown as the app measures it (pseudo-scripts)', () => {
    for (const code of ['hi', 'ar', 'es'])
      for (const asked of [0.25, 0.75]) {
        const texts = mixedTexts(fields, asked, code);
        expect(shownMixingRatio(texts)).toBeCloseTo(
          mixingRatio(mixingCount(texts, fields, languageInfo(`LS:${code}`)!))!,
          12,
        );
      }
  });

  it('reads its planted slope and noise from the model name', () => {
    expect(plantedMixing('sim-judge-mix40')).toEqual({ slope: 0.4, noise: 0 });
    expect(plantedMixing('sim-judge-strong-mix100-noise5')).toEqual({ slope: 1, noise: 0.05 });
    expect(plantedMixing('sim-judge-mix101')).toBeNull();
    expect(plantedMixing('sim-judge-strong')).toBeNull();
    expect(plantedMixing('sim-judge-first10')).toBeNull();
  });
});
