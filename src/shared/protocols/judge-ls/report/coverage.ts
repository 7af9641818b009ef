// How many usable verdicts each judge has per language, and what failed instead. A judge whose
// English verdicts all failed has no quality row at all (rows need n > 0): these helpers let the
// tables, figures and the results banner say so instead of silently showing less.
import type { Comparison, JudgeLsMetrics, Language } from '../types';

const LANGUAGES: Language[] = ['EN', 'ZH', 'LS'];
/** EN, ZH, LS, then the other targets (issue 37) the quality rows and failures name. */
function languagesOf(metrics: JudgeLsMetrics): Language[] {
  const more = [...metrics.quality, ...metrics.failures.filter((f) => f.kind === 'quality')]
    .map((r) => r.language)
    .filter((l) => !LANGUAGES.includes(l));
  return [...LANGUAGES, ...new Set(more)];
}

/** Failure rows of the transformer carry this judge name (see the metrics). */
const TRANSFORMER = 'transformer';

export interface LanguageCoverage {
  judge: string;
  language: Language;
  /** Valid quality verdicts (the quality row's n). */
  usable: number;
  /** Quality verdicts that ended without a usable answer. */
  failed: number;
}

/** Judges of quality rows and of quality failures, in first-seen order. */
function judgesOf(metrics: JudgeLsMetrics): string[] {
  const seen = new Set<string>();
  for (const r of metrics.quality) seen.add(r.judge);
  for (const f of metrics.failures) if (f.judge !== TRANSFORMER && f.kind === 'quality') seen.add(f.judge);
  return [...seen];
}

/** Every (judge, language) that has answered quality verdicts, usable or not. */
export function qualityCoverage(metrics: JudgeLsMetrics): LanguageCoverage[] {
  const out: LanguageCoverage[] = [];
  for (const judge of judgesOf(metrics)) {
    for (const language of languagesOf(metrics)) {
      const usable = metrics.quality.find((r) => r.judge === judge && r.language === language)?.n ?? 0;
      const failed = metrics.failures
        .filter((f) => f.judge === judge && f.kind === 'quality' && f.language === language)
        .reduce((n, f) => n + f.count, 0);
      if (usable + failed > 0) out.push({ judge, language, usable, failed });
    }
  }
  return out;
}

/** Coverage where at least half of the answered verdicts failed: worth a banner. */
export function mostlyFailed(metrics: JudgeLsMetrics): LanguageCoverage[] {
  return qualityCoverage(metrics).filter((c) => c.failed > 0 && c.usable <= c.failed);
}

/** "GPT · EN: 0 usable verdicts of 360" (the English sentence exports carry). */
export function coverageSentence(c: LanguageCoverage): string {
  return `${c.judge} · ${c.language}: ${c.usable} usable verdict${c.usable === 1 ? '' : 's'} of ${c.usable + c.failed}`;
}

/** The note exports carry when a language mostly failed; null when none did. */
export function failureNote(metrics: JudgeLsMetrics): string | null {
  const bad = mostlyFailed(metrics);
  return bad.length ? `Warning: ${bad.map(coverageSentence).join('; ')} (see the failures table).` : null;
}

/** Why a comparison has no invariance row although both languages were answered; null if it needs none. */
export function missingComparison(
  metrics: JudgeLsMetrics,
  judge: string,
  comparison: Comparison,
): { coverage: LanguageCoverage[]; empty: Language[] } | null {
  if (metrics.language_invariance.some((r) => r.judge === judge && r.comparison === comparison)) return null;
  const langs: Language[] = ['EN', comparison.slice('EN-'.length)];
  const coverage = langs.map((l) =>
    qualityCoverage(metrics).find((c) => c.judge === judge && c.language === l),
  );
  if (coverage.some((c) => !c)) return null;
  const cs = coverage as LanguageCoverage[];
  const empty = cs.filter((c) => c.usable === 0).map((c) => c.language);
  return empty.length ? { coverage: cs, empty } : null;
}

export { judgesOf as coverageJudges };
