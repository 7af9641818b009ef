// The core's refusals in the page's language (namespace 'refusals'; keys: src/shared/refusals.ts).
// English equals the core's message, so the page reads the same as the CLI; the type makes every
// key's translation required. Importing this module registers them.
import type { RefusalKey } from '../../../shared/refusals';
import { i18next } from '../i18n';

export const REFUSALS_NS = 'refusals';

type Texts = Record<RefusalKey, string>;

const en: Texts = {
  'prereg.supersedeNeedsReason':
    '"{{experiment}}" has a locked preregistration (version {{version}}, {{lockedAt}}, SHA-256 {{sha256}}): a lock is never edited; state why a new version supersedes it.',
  'prereg.reasonRequired': 'required to supersede a locked preregistration',
  'prereg.unknownComparison':
    '{{field}}: "{{id}}" is not a comparison of this experiment\'s power plan (have: {{have}})',
  'prereg.notInPowerPlan': 'not a comparison of the power plan',
  'prereg.amendmentRequired':
    'preregistration: "{{experiment}}" has a locked plan (version {{version}}); a changed plan supersedes it only with "amendment" saying why. Nothing was written.',
  'prereg.amendmentRequiredField': 'required to change a locked plan',
  'prereg.unknownKey': 'unknown key {{keys}}',
  'prereg.duplicate': '"{{id}}" twice',
  'prereg.primaryNotConfirmatory': 'must be one of "confirmatory"',
  'prereg.exclusionsMissing': 'state the exclusion rule (e.g. "none")',
  'prereg.stoppingMissing': 'state the stopping rule (e.g. "all planned items")',
  'prereg.planInvalid': '{{field}}: {{detail}}',
};

const zh: Texts = {
  'prereg.supersedeNeedsReason':
    '“{{experiment}}”已有锁定的预注册（第 {{version}} 版，{{lockedAt}}，SHA-256 {{sha256}}）：锁定永不修改；请说明新版本为何取代它。',
  'prereg.reasonRequired': '取代已锁定的预注册时必须填写',
  'prereg.unknownComparison': '{{field}}：“{{id}}”不是本实验功效计划中的比较（现有：{{have}}）',
  'prereg.notInPowerPlan': '不是功效计划中的比较',
  'prereg.amendmentRequired':
    'preregistration：“{{experiment}}”已有锁定的计划（第 {{version}} 版）；更改后的计划只有在 "amendment" 说明理由时才能取代它。未写入任何内容。',
  'prereg.amendmentRequiredField': '更改已锁定的计划时必须填写',
  'prereg.unknownKey': '未知的键 {{keys}}',
  'prereg.duplicate': '“{{id}}”重复出现',
  'prereg.primaryNotConfirmatory': '必须是验证性比较之一',
  'prereg.exclusionsMissing': '请说明排除规则（例如“无”）',
  'prereg.stoppingMissing': '请说明停止规则（例如“全部计划条目”）',
  'prereg.planInvalid': '{{field}}：{{detail}}',
};

/** i18next reads a dot as nesting: the flat keys become nested objects. */
function nested(texts: Texts): Record<string, unknown> {
  const out: Record<string, Record<string, string>> = {};
  for (const [key, text] of Object.entries(texts)) {
    const [group, name] = key.split('.');
    (out[group] ??= {})[name] = text;
  }
  return out;
}

export const refusalResources = { en, zh };

i18next.addResourceBundle('en', REFUSALS_NS, nested(en), true, true);
i18next.addResourceBundle('zh', REFUSALS_NS, nested(zh), true, true);
