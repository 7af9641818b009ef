// The Methods document as Markdown and as LaTeX, and the reviewer's checklist (issue 24). Text in
// the document is plain: each renderer escapes it for its format. The English .tex compiles with
// pdflatex (any non-ASCII character beyond accented Latin is written as its code point, as the
// tables do); the Chinese .tex keeps its characters and needs XeLaTeX with ctex (its preamble says so).
import { methodsNumber, type MethodsDocument, type MethodsLang } from '../../shared/paper/methods';
import { escapeLatex, MATH_SYMBOLS, TEX_SPECIALS } from '../report/latex';
import type { PaperInputs, PreregistrationView } from '../../shared/paper/preregistration';
import type { PowerComparison, PowerPlan } from '../../shared/paper/types';
import type { MethodsFacts } from './methods-facts';

/** Markdown that shows `text` literally: every character Markdown could read as markup is escaped. */
export function escapeMarkdown(text: string): string {
  // Inline markup anywhere; block markup (a heading, list, quote or numbered line) only at the start.
  return text
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`)
    .replace(
      /^(\s*)([#>+-]|\d+[.)])/,
      (_, sp: string, m: string) => `${sp}${m.slice(0, -1)}\\${m.slice(-1)}`,
    );
}

const APPENDIX: Record<MethodsLang, string> = { en: 'Appendix: prompt templates', zh: '附录：提示词模板' };
const REFS: Record<MethodsLang, string> = { en: 'References', zh: '参考文献' };

export function methodsMarkdown(doc: MethodsDocument): string {
  const out: string[] = [`# ${escapeMarkdown(doc.title)}`, ''];
  for (const n of doc.notes) out.push(`> **${escapeMarkdown(n)}**`, '');
  for (const s of doc.sections) {
    out.push(`## ${escapeMarkdown(s.title)}`, '');
    for (const b of s.blocks) {
      if (b.kind === 'p') out.push(escapeMarkdown(b.text), '');
      else out.push(...b.items.map((i) => `- ${escapeMarkdown(i)}`), '');
    }
  }
  if (doc.references.length) {
    out.push(`## ${REFS[doc.lang]}`, '', ...doc.references.map((r) => `- ${escapeMarkdown(r)}`), '');
  }
  out.push(`## ${APPENDIX[doc.lang]}`, '');
  for (const p of doc.prompts) {
    // A fence longer than any backtick run in the prompt, so the prompt cannot close it.
    const longest = Math.max(2, ...[...p.text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    out.push(
      `### ${escapeMarkdown(p.name)}`,
      '',
      `SHA-256 ${p.sha256}`,
      '',
      fence + 'text',
      p.text,
      fence,
      '',
    );
  }
  return out.join('\n');
}

/**
 * For XeLaTeX: TeX's specials escaped, the symbols the Latin text font lacks (Greek, ½, arrows)
 * set in math mode as the English file sets them (they were dropped with only a log warning),
 * every other character kept (the Chinese font has it).
 */
function escapeXe(text: string): string {
  return text
    .replace(/[\\&%$#_{}~^]/g, (c) => TEX_SPECIALS[c])
    .replace(/[\r\n\t]/g, ' ')
    .replace(/./gu, (c) => MATH_SYMBOLS[c] ?? c);
}

/** The packages methods.tex loads: in texlive-latex-base / -recommended (EN), plus ctex for 中文. */
export const METHODS_LATEX_PREAMBLE: Record<MethodsLang, string[]> = {
  en: ['\\documentclass[11pt]{article}', '\\usepackage[T1]{fontenc}', '\\usepackage[hidelinks]{hyperref}'],
  zh: [
    '% Compile with XeLaTeX: ctex (texlive-lang-chinese) sets up the Chinese fonts.',
    '\\documentclass[11pt]{ctexart}',
    '\\usepackage[hidelinks]{hyperref}',
  ],
};

export function methodsLatex(doc: MethodsDocument): string {
  const esc = doc.lang === 'zh' ? escapeXe : escapeLatex;
  const out = [
    '% Judge Lab: the Methods section, written from the stored experiment.',
    ...METHODS_LATEX_PREAMBLE[doc.lang],
    '\\begin{document}',
    `\\section*{${esc(doc.title)}}`,
  ];
  for (const n of doc.notes) out.push(`\\noindent\\textbf{${esc(n)}}`, '');
  for (const s of doc.sections) {
    out.push(`\\subsection*{${esc(s.title)}}`);
    for (const b of s.blocks) {
      if (b.kind === 'p') out.push(esc(b.text), '');
      else if (b.items.length)
        out.push('\\begin{itemize}', ...b.items.map((i) => `\\item ${esc(i)}`), '\\end{itemize}');
    }
  }
  if (doc.references.length) {
    out.push(
      `\\subsection*{${REFS[doc.lang]}}`,
      '\\begin{itemize}',
      ...doc.references.map((r) => `\\item ${esc(r)}`),
      '\\end{itemize}',
    );
  }
  out.push('\\appendix', `\\subsection*{${esc(APPENDIX[doc.lang])}}`);
  for (const p of doc.prompts) {
    out.push(
      `\\subsubsection*{${esc(p.name)}}`,
      `SHA-256 \\texttt{${p.sha256}}`,
      '',
      '\\begin{flushleft}\\small\\ttfamily',
    );
    // Line by line, escaped (never verbatim: a prompt could end a verbatim block itself).
    for (const line of p.text.split('\n')) out.push(line.trim() === '' ? '\\mbox{}\\\\' : `${esc(line)}\\\\`);
    out.push('\\end{flushleft}');
  }
  out.push('\\end{document}', '');
  return out.join('\n');
}

type Check = { done: boolean; text: string };

/** A comparison's MDE as Methods print it: the number, or "undefined" and why (the plan's reason, else `why`). */
export function mdeText(
  c: Pick<PowerComparison, 'mde' | 'mdeUndefined'>,
  en: boolean,
  why: { en: string; zh: string },
): string {
  if (c.mde !== null) return methodsNumber(c.mde);
  return en ? `undefined (${c.mdeUndefined ?? why.en})` : `未定义（${c.mdeUndefined ?? why.zh}）`;
}

/** The power plan for the items used: each comparison's smallest detectable effect (or why it is undefined). */
function sampleSizeCheck(power: PowerPlan | null, items: number, lang: MethodsLang): Check {
  const en = lang === 'en';
  if (!power || power.comparisons.length === 0)
    return {
      done: false,
      text: en
        ? 'Sample size rationale: this protocol has no power model; state why the number of items suffices.'
        : '样本量依据：本协议没有功效模型；请说明条目数量为何足够。',
    };
  const rows = power.comparisons.map((c) => {
    const mde = mdeText(c, en, { en: 'no estimate', zh: '无估计' });
    return `${c.label}: ${c.n} ${c.unit}, MDE ${mde}`;
  });
  const pilot = power.pilot
    ? en
      ? `rates from the pilot "${power.pilot.name}"${power.pilot.simulated ? ' (simulated)' : ''}`
      : `比率取自试点实验“${power.pilot.name}”${power.pilot.simulated ? '（模拟）' : ''}`
    : en
      ? "the app's default rates"
      : '应用的默认比率';
  return {
    done: true,
    text: en
      ? `Sample size rationale: power plan for the ${items} items used at ${Math.round(power.power * 100)}% power and α = ${power.alpha}, ${pilot}: ${rows.join('; ')}.`
      : `样本量依据：所用 ${items} 个条目的功效计划（${Math.round(power.power * 100)}% 功效，α = ${power.alpha}，${pilot}）：${rows.join('；')}。`,
  };
}

function preregistrationCheck(view: PreregistrationView, lang: MethodsLang): Check {
  const en = lang === 'en';
  const a = view.active;
  if (!a)
    return {
      done: false,
      text: en
        ? 'Preregistration: no analysis plan was locked (`judge-lab preregister`); report every analysis as exploratory.'
        : '预注册：未锁定分析计划（`judge-lab preregister`）；所有分析应报告为探索性分析。',
    };
  const late = view.afterData;
  if (late)
    return {
      done: false,
      text: en
        ? `Preregistration: none. The analysis plan was registered after data collection (first locked ${late.lockedAt}, when ${late.answers} answers were already stored; version ${a.version}, SHA-256 ${a.sha256}); report its comparisons as registered after data collection, not confirmatory.`
        : `预注册：无。分析计划属于数据收集后登记（首次锁定于 ${late.lockedAt}，此时已存有 ${late.answers} 个回答；第 ${a.version} 版，SHA-256 ${a.sha256}）；其中的比较应报告为数据收集后登记，而非验证性分析。`,
    };
  return {
    done: true,
    text: en
      ? `Preregistration: version ${a.version} locked ${a.lockedAt} (SHA-256 ${a.sha256}); ${view.deviations.length} deviations listed in methods.md.`
      : `预注册：第 ${a.version} 版锁定于 ${a.lockedAt}（SHA-256 ${a.sha256}）；methods.md 列出 ${view.deviations.length} 处偏离。`,
  };
}

/** What a reviewer will ask, answered from the facts where the store knows, left open where it cannot. */
export function methodsChecklist(
  facts: MethodsFacts,
  lang: MethodsLang,
  annotated: number | null,
  paper: PaperInputs,
): string {
  const en = lang === 'en';
  const checks: Check[] = [
    sampleSizeCheck(paper.power, facts.dataset.used, lang),
    preregistrationCheck(paper.preregistration, lang),
    {
      done: true,
      text: en
        ? `Exclusions: ${facts.tasks.failed} failed answers left out of every statistic; ${facts.flagged} items flagged by the audit (sensitivity analysis without them).`
        : `排除：${facts.tasks.failed} 个失败回答不计入统计；审核标记 ${facts.flagged} 个条目（另有排除它们的敏感性分析）。`,
    },
    {
      done: facts.models.every((m) => m.firstAnswer !== null),
      text: en
        ? 'Judge versions: provider, model id, temperature and the dates of the first and last answer are in methods.md ("Models").'
        : '评审模型版本：提供方、模型 ID、温度及首末回答日期见 methods.md（“模型”）。',
    },
    {
      done: true,
      text: en
        ? `Prompt availability: ${facts.prompts.length} templates in full in the appendix, with SHA-256 hashes.`
        : `提示词可得性：${facts.prompts.length} 个模板全文见附录，并附 SHA-256 哈希。`,
    },
    {
      done: annotated !== null && annotated > 0,
      text: en
        ? annotated === null
          ? 'Human-rating protocol: this protocol offers no human rating.'
          : `Human-rating protocol: ${annotated} human labels stored; describe who rated, the instructions and the blinding.`
        : annotated === null
          ? '人工评分规程：本协议不提供人工评分。'
          : `人工评分规程：已存 ${annotated} 个人工标注；请说明评分者、说明文字与盲评方式。`,
    },
    {
      done: annotated !== null && annotated > 0,
      text: en
        ? "Inter-rater agreement: report the agreement tables of the annotation page (Krippendorff's α, Gwet's AC1/AC2, judge vs. people), the alternative annotator test, and any rate from the judge as a corrected estimate (PPI++ or Rogan–Gladen with its 95% CI), not the judge's raw rate."
        : '评分者间一致性：报告标注页的一致性表（Krippendorff α、Gwet AC1/AC2，评审模型与人工）、替代标注者检验；评审模型给出的比例请报告校正后的估计（PPI++ 或 Rogan–Gladen 及其 95% 置信区间），而非评审模型的原始比例。',
    },
    {
      done: false,
      text: en
        ? 'Data and code: share the study bundle and the export folder (manifest.json lists every file).'
        : '数据与代码：共享研究包与导出文件夹（manifest.json 列出每个文件）。',
    },
  ];
  const name = escapeMarkdown(facts.experiment.name);
  const title = en ? `# Reporting checklist: ${name}` : `# 报告检查清单：${name}`;
  return [title, '', ...checks.map((c) => `- [${c.done ? 'x' : ' '}] ${c.text}`), ''].join('\n');
}
