// The preregistration in words (issue 24 part 2), English and Chinese: the document a user files
// (preregistration.md) and the blocks the Methods section "Deviations from the preregistration"
// is written from. Plain text blocks; the Methods renderers escape them, and the document escapes
// every user-typed text for Markdown.
import type { MethodsBlock, MethodsLang } from '../../shared/paper/methods';
import {
  answersStoredAtLock,
  type PreregDeviation,
  type PreregistrationLock,
  type PreregistrationView,
} from '../../shared/paper/preregistration';
import { escapeMarkdown, mdeText } from './methods-render';

const p = (d: PreregDeviation, k: string) => String(d.params[k] ?? '');

const ZH_DEVIATIONS: Record<PreregDeviation['kind'], (d: PreregDeviation) => string> = {
  locked_after_data: (d) =>
    `数据收集后登记：计划锁定于 ${p(d, 'at')}，此时已存有 ${p(d, 'answers')} 个回答，因此其中的比较不是验证性分析。`,
  amended: (d) =>
    `第 ${p(d, 'version')} 版于 ${p(d, 'at')} 取代了前一版（当时已收集 ${p(d, 'answers')} 个回答）：${p(d, 'reason')}`,
  sample_size: (d) => `计划登记了 ${p(d, 'registered')} 个条目；实验使用了 ${p(d, 'used')} 个。`,
  items_changed: (d) => `实验使用的条目数（${p(d, 'items')}）与登记相同，但条目不同。`,
  judges: (d) => `评审模型与登记的不同：新增 ${p(d, 'added') || '无'}；移除 ${p(d, 'removed') || '无'}。`,
  config: (d) => `锁定后配置有改动：${p(d, 'keys')}。`,
  comparison_missing: (d) => `登记的验证性比较已不再进行：${p(d, 'ids')}。`,
  texts_edited: (d) => `锁定后有 ${p(d, 'count')} 段文本被人工编辑。`,
  answers_missing: (d) =>
    `计划的 ${p(d, 'planned')} 个回答中有 ${p(d, 'failed')} 个失败，因此分析样本小于登记的样本。`,
};

export function deviationText(d: PreregDeviation, lang: MethodsLang): string {
  return lang === 'en' ? d.text : ZH_DEVIATIONS[d.kind](d);
}

const CORRECTION: Record<MethodsLang, Record<string, string>> = {
  en: { holm: 'Holm (step-down)', bonferroni: 'Bonferroni', none: 'none' },
  zh: { holm: 'Holm 逐步下降法', bonferroni: 'Bonferroni', none: '无' },
};

/**
 * The plan of one lock as short facts. `afterData`: the plan was first locked once answers were
 * stored, so its comparisons are named as registered after data collection, never confirmatory.
 */
export function lockFacts(lock: PreregistrationLock, lang: MethodsLang, afterData = false): string[] {
  const { plan, snapshot } = lock;
  const en = lang === 'en';
  const named = afterData
    ? en
      ? 'Comparisons named in the plan (registered after data collection, not confirmatory)'
      : '计划中列出的比较（数据收集后登记，不是验证性分析）'
    : en
      ? 'Confirmatory comparisons'
      : '验证性比较';
  const comparisons = plan.confirmatory.map((id) => {
    const c = snapshot.comparisons.find((x) => x.id === id);
    const primary = id === plan.primary ? (en ? ' (primary)' : '（主要）') : '';
    if (!c) return `${id}${primary}`;
    const mde = mdeText(c, en, { en: 'no power model', zh: '无功效模型' });
    return en
      ? `${id}${primary}: ${c.label}; ${c.n} ${c.unit} per judge, smallest detectable effect ${mde} at 80% power`
      : `${id}${primary}：${c.label}；每个评审模型 ${c.n} 个单位（${c.unit}），80% 功效下可检测的最小效应 ${mde}`;
  });
  return en
    ? [
        `Locked: ${lock.lockedAt} (version ${lock.version}, SHA-256 ${lock.sha256})`,
        ...(lock.reason ? [`Supersedes version ${lock.version - 1} because: ${lock.reason}`] : []),
        ...(plan.hypotheses ? [`Hypotheses: ${plan.hypotheses}`] : []),
        `${named}: ${comparisons.join(' | ')}`,
        `α = ${plan.alpha}; correction across the confirmatory family: ${CORRECTION.en[plan.correction]}`,
        `Exclusion rule: ${plan.exclusions}`,
        `Stopping rule: ${plan.stopping}`,
        `Registered sample: ${snapshot.items} items; judges: ${snapshot.judges.join(', ') || 'none'}; answers stored at the lock: ${answersStoredAtLock(lock)}`,
      ]
    : [
        `锁定时间：${lock.lockedAt}（第 ${lock.version} 版，SHA-256 ${lock.sha256}）`,
        ...(lock.reason ? [`取代第 ${lock.version - 1} 版的理由：${lock.reason}`] : []),
        ...(plan.hypotheses ? [`假设：${plan.hypotheses}`] : []),
        `${named}：${comparisons.join(' | ')}`,
        `α = ${plan.alpha}；验证性检验族的校正：${CORRECTION.zh[plan.correction]}`,
        `排除规则：${plan.exclusions}`,
        `停止规则：${plan.stopping}`,
        `登记样本：${snapshot.items} 个条目；评审模型：${snapshot.judges.join('、') || '无'}；锁定时已存有回答：${answersStoredAtLock(lock)}`,
      ];
}

/** The Methods section "Deviations from the preregistration", from the stored locks. */
export function deviationBlocks(view: PreregistrationView, lang: MethodsLang, none: string): MethodsBlock[] {
  const active = view.active;
  if (!active) return [{ kind: 'p', text: none }];
  const en = lang === 'en';
  const late = view.afterData;
  const blocks: MethodsBlock[] = [
    {
      kind: 'p',
      text: late
        ? en
          ? `An analysis plan was registered after data collection: it was first locked at ${late.lockedAt}, when ${late.answers} answers were already stored (version ${active.version} is in force). It is not a preregistration, and the comparisons it names are not confirmatory; they and every other analysis above are reported as registered after data collection or exploratory.`
          : `本实验的分析计划属于数据收集后登记：首次锁定于 ${late.lockedAt}，此时已存有 ${late.answers} 个回答（现行为第 ${active.version} 版）。它不是预注册，其中列出的比较不是验证性分析；这些比较及以上其他分析均按“数据收集后登记”或探索性分析报告。`
        : en
          ? `An analysis plan was locked for this experiment (version ${active.version} is in force; when each version was locked, and how many answers had been collected by then, is stated below). The comparisons it names are confirmatory; every other analysis above is exploratory.`
          : `本实验锁定了分析计划（现行为第 ${active.version} 版；各版本的锁定时间及当时已收集的回答数见下文）。其中列出的比较为验证性分析；以上其他分析均为探索性分析。`,
    },
    { kind: 'list', items: lockFacts(active, lang, late !== null) },
  ];
  const superseded = view.locks.slice(0, -1);
  if (superseded.length)
    blocks.push(
      {
        kind: 'p',
        text: en ? 'Superseded versions (kept, never edited):' : '被取代的版本（保留，从未修改）：',
      },
      {
        kind: 'list',
        items: superseded.map((l) =>
          en
            ? `Version ${l.version}: locked ${l.lockedAt}, SHA-256 ${l.sha256}`
            : `第 ${l.version} 版：锁定于 ${l.lockedAt}，SHA-256 ${l.sha256}`,
        ),
      },
    );
  blocks.push(
    view.deviations.length
      ? { kind: 'p', text: en ? 'Deviations from the plan:' : '与计划的偏离：' }
      : { kind: 'p', text: en ? 'No deviation from the plan was found.' : '未发现与计划的偏离。' },
  );
  if (view.deviations.length)
    blocks.push({ kind: 'list', items: view.deviations.map((d) => deviationText(d, lang)) });
  return blocks;
}

/** preregistration.md: every lock, newest first, and the deviations found so far. */
export function preregistrationMarkdown(
  experimentName: string,
  view: PreregistrationView,
  lang: MethodsLang,
): string {
  const en = lang === 'en';
  const out = [
    `# ${escapeMarkdown(en ? `Preregistration: ${experimentName}` : `预注册：${experimentName}`)}`,
    '',
  ];
  if (!view.active) {
    out.push(
      escapeMarkdown(
        en
          ? 'No analysis plan was locked for this experiment: every analysis is exploratory.'
          : '本实验未锁定分析计划：所有分析均为探索性分析。',
      ),
      '',
    );
    return out.join('\n');
  }
  if (view.afterData)
    out.push(
      escapeMarkdown(
        en
          ? `Registered after data collection, not a preregistration: the plan was first locked when ${view.afterData.answers} answers were already stored, so its comparisons are not confirmatory.`
          : `数据收集后登记，不是预注册：计划首次锁定时已存有 ${view.afterData.answers} 个回答，因此其中的比较不是验证性分析。`,
      ),
      '',
    );
  for (const lock of [...view.locks].reverse()) {
    const state = lock === view.active ? (en ? 'in force' : '现行') : en ? 'superseded' : '已被取代';
    out.push(
      `## ${escapeMarkdown(en ? `Version ${lock.version} (${state})` : `第 ${lock.version} 版（${state}）`)}`,
      '',
    );
    out.push(...lockFacts(lock, lang, view.afterData !== null).map((f) => `- ${escapeMarkdown(f)}`), '');
  }
  out.push(`## ${en ? 'Deviations found' : '已发现的偏离'}`, '');
  if (view.deviations.length === 0) out.push(en ? 'None.' : '无。', '');
  else out.push(...view.deviations.map((d) => `- ${escapeMarkdown(deviationText(d, lang))}`), '');
  return out.join('\n');
}
