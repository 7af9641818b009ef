// The wizard's other target languages and back-translation model (issue 37): what the transform
// step accepts, what it rejects, and what goes into the config it saves.
import { describe, expect, it } from 'vitest';
import { useWizard } from '../../../stores/wizard';
import { i18next } from '../../../i18n';
import '../i18n';
import {
  initialJudgeLsDraft,
  judgeLsConfig,
  parseOtherLanguages,
  validateTransform,
  withJudgeLsDraft,
} from './draft';

function draftWith(transform: Partial<ReturnType<typeof initialJudgeLsDraft>['transform']>) {
  const own = initialJudgeLsDraft();
  useWizard.getState().reset();
  return withJudgeLsDraft(useWizard.getState().draft, {
    ...own,
    transform: { ...own.transform, model: 'gpt-4.1-mini', edited: true, ...transform },
  });
}

describe('other languages in the Judge-LS wizard', () => {
  it('reads codes separated by commas, spaces or Chinese punctuation, once each, and names the unknown ones', () => {
    expect(parseOtherLanguages('ar, hi；LS:te、ar  xx ZH')).toEqual({
      codes: ['ar', 'hi', 'LS:te'],
      unknown: ['xx'],
    });
    expect(parseOtherLanguages(undefined)).toEqual({ codes: [], unknown: [] });
    // Mixing ratios for a dose–response (issue 37): whole percentages 0–100 of a code-switched pair.
    expect(parseOtherLanguages('LS:hi@0, LS:hi@50 LS:hi@100 LS:hi@150 hi@25')).toEqual({
      codes: ['LS:hi@0', 'LS:hi@50', 'LS:hi@100'],
      unknown: ['LS:hi@150', 'hi@25'],
    });
  });

  it('puts the codes after ZH and LS in the config, and verify only with a model', () => {
    const cfg = judgeLsConfig(draftWith({ otherLanguages: 'ar LS:hi' }));
    expect((cfg.transform as { languages: string[] }).languages).toEqual(['ZH', 'LS', 'ar', 'LS:hi']);
    expect(cfg.transform).not.toHaveProperty('verify');
    const verified = judgeLsConfig(draftWith({ otherLanguages: 'ar', verifyModel: ' claude-haiku-4-5 ' }));
    expect((verified.transform as { verify: unknown }).verify).toEqual({
      provider: (verified.transform as { provider: string }).provider,
      model: 'claude-haiku-4-5',
    });
    // Unchanged drafts save exactly the keys they saved before.
    expect(Object.keys(judgeLsConfig(draftWith({})).transform as object)).toEqual([
      'provider',
      'model',
      'languages',
    ]);
  });

  it('accepts other languages alone, and names unknown codes in both UI languages', async () => {
    const onlyCodes = validateTransform(
      draftWith({ languages: { ZH: false, LS: false }, otherLanguages: 'sw' }),
    );
    expect(onlyCodes.filter((i) => i.field.startsWith('transform.languages'))).toEqual([]);
    const none = validateTransform(draftWith({ languages: { ZH: false, LS: false } }));
    expect(none.map((i) => i.code)).toContain('languagesRequired');
    const bad = validateTransform(draftWith({ otherLanguages: 'ar, klingon' }));
    const issue = bad.find((i) => i.field === 'transform.otherLanguages')!;
    expect(issue).toMatchObject({ code: 'languagesUnknown', params: { codes: 'klingon' } });
    const ns = { ns: 'judge-ls' };
    expect(i18next.t(`wizard.errors.${issue.code}`, { ...issue.params, ...ns, lng: 'en' })).toBe(
      'Unknown language code(s): klingon.',
    );
    expect(i18next.t(`wizard.errors.${issue.code}`, { ...issue.params, ...ns, lng: 'zh' })).toBe(
      '未知的语言代码：klingon。',
    );
  });
});
