// Judge-LS's words on the judge report card (conditions and the reasons a value is undefined),
// in English and Chinese: the plug-in hands them to the card's exports, the app to its page.
import type { CardDictionary } from '../../../report-card/phrases';
import { LANGUAGE_CATALOGUE } from '../../../languages';
import { targetName } from '../languages';

/** Every target's name by its code (ZH, LS, `ar`, `LS:ar`), for the `target` parameter. */
function targetNames(lang: 'en' | 'zh'): Record<string, string> {
  const codes = ['ZH', 'LS', ...LANGUAGE_CATALOGUE.flatMap((l) => [l.code, `LS:${l.code}`])];
  return Object.fromEntries(codes.map((c) => [c, targetName(c, lang)]));
}

export const JUDGE_LS_CARD_TEXT: CardDictionary = {
  en: {
    phrases: {
      language: '{{language}}',
      comparison: '{{comparison}}',
      beyond_floor: '{{comparison}} beyond the noise floor',
      no_floor: '{{comparison}} (no noise floor measured)',
      no_valid_verdict: 'no valid verdict',
      no_pair_both_languages: 'no pair valid in both languages',
      no_item_both_orders: 'no item valid in both orders',
      no_item_decided_both_orders: 'no item named A or B in both orders',
      no_pair_repeat: 'no pair with both asks valid',
      no_pair_floor: 'no pair valid in EN, its repeat and the target language',
      // Verified translations (issue 37): the back-translation check's pass rate per language and
      // the flip rates again on the items whose every translation passed.
      verified_by: '{{target}}: translated back by {{model}}, chrF ≥ {{min}}',
      verified_by_llm:
        "{{target}}: translated back by {{model}}, chrF ≥ {{min}} and the model's equivalence verdict",
      verified_only: '{{comparison}}, verified items only',
      no_translation_checked: 'no translation checked',
    },
    values: { target: targetNames('en') },
  },
  zh: {
    title: 'Judge-LS：语言敏感性',
    measures: {
      accuracy: '准确率（严格）',
      flip_rate: '翻转率',
      noise_floor: '重复翻转率（噪声底）',
      translation_verified: '通过回译检查的译文比例',
    },
    phrases: {
      language: '{{language}}',
      comparison: '{{comparison}}',
      beyond_floor: '{{comparison}}，超出噪声底的部分',
      no_floor: '{{comparison}}（未测量噪声底）',
      no_valid_verdict: '没有有效判决',
      no_pair_both_languages: '没有在两种语言下都有效的配对',
      no_item_both_orders: '没有在两种顺序下都有效的条目',
      no_item_decided_both_orders: '没有在两种顺序下都判为 A 或 B 的条目',
      no_pair_repeat: '没有两次提问都有效的配对',
      no_pair_floor: '没有在 EN、其重复和目标语言下都有效的配对',
      verified_by: '{{target}}：由 {{model}} 回译，chrF ≥ {{min}}',
      verified_by_llm: '{{target}}：由 {{model}} 回译，chrF ≥ {{min}}，并经该模型判定等价',
      verified_only: '{{comparison}}，仅已验证条目',
      no_translation_checked: '没有经过检查的译文',
    },
    values: { target: targetNames('zh') },
  },
};
