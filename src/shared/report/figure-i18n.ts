// Figures in the reader's language: a figure is built once, in English, and its words (title,
// axis names, legend and series names, the note) are then put into another language from
// dictionaries, so the app and the exports made from it show the same translated figure.
// Only whole phrases listed here are replaced: judge labels, subsets and numbers from user
// files pass through unchanged (a dictionary never holds ECharts' own option values).
import type { FigureSpec } from './chart-kit';
import { SIMULATED_PREFIX } from './simulated';

export type FigureLanguage = 'en' | 'zh';
export const FIGURE_LANGUAGES: readonly FigureLanguage[] = ['en', 'zh'];

export interface FigureDictionary {
  /** Whole strings and their translation. */
  exact: Record<string, string>;
  /** Applied in order to strings that are not an exact entry (parts of titles and notes). */
  patterns?: [RegExp, string][];
}

/** The chart kit's own words (default axis names). */
export const CHART_KIT_ZH: FigureDictionary = {
  exact: { Judge: '评审模型' },
};

const SIMULATED_ZH = '模拟数据 — ';

function translator(dicts: readonly FigureDictionary[]): (s: string) => string {
  const exact = new Map<string, string>();
  for (const d of dicts) for (const [k, v] of Object.entries(d.exact)) exact.set(k, v);
  const patterns = dicts.flatMap((d) => d.patterns ?? []);
  const t = (s: string): string => {
    // A simulated figure's title is the mark and then a title of its own.
    if (s.startsWith(SIMULATED_PREFIX)) return SIMULATED_ZH + t(s.slice(SIMULATED_PREFIX.length));
    const hit = exact.get(s);
    if (hit !== undefined) return hit;
    let out = s;
    for (const [re, rep] of patterns) out = out.replace(re, rep);
    return out;
  };
  return t;
}

/** Keys whose string values are ECharts settings, never words to show. */
const SETTINGS = new Set([
  'type',
  'id',
  'color',
  'borderColor',
  'textBorderColor',
  'backgroundColor',
  'fontFamily',
  'fontWeight',
  'left',
  'right',
  'top',
  'bottom',
  'orient',
  'position',
  'nameLocation',
  'overflow',
  'trigger',
  'barWidth',
  'barGap',
  'stack',
]);

/** The id a translated series gets: its English name (ids must be unique, hence the index). */
export function englishSeriesId(name: string, index: number): string {
  return `en:${name}#${index}`;
}

/** The English name of a translated series, from its id; null for a series that was not translated. */
export function englishSeriesName(seriesId: string | undefined): string | null {
  const m = /^en:(.*)#\d+$/.exec(seriesId ?? '');
  return m ? m[1] : null;
}

function walk(value: unknown, t: (s: string) => string, key = ''): unknown {
  if (typeof value === 'string') return SETTINGS.has(key) ? value : t(value);
  if (Array.isArray(value))
    return value.map((v, i) => {
      const out = walk(v, t, key);
      // A series keeps its English name in its id: code that tells series apart (clicks) reads it.
      const o = v as Record<string, unknown> | null;
      if (key === 'series' && o && typeof o.name === 'string' && o.id === undefined)
        (out as Record<string, unknown>).id = englishSeriesId(o.name, i);
      return out;
    });
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, t, k);
    return out;
  }
  return value;
}

/** The figure in `lang`; English (or a language without dictionaries) returns it unchanged. */
export function localizeFigure(
  spec: FigureSpec,
  lang: FigureLanguage,
  dicts: readonly FigureDictionary[],
): FigureSpec {
  if (lang === 'en' || dicts.length === 0) return spec;
  const t = translator([CHART_KIT_ZH, ...dicts]);
  return {
    ...spec,
    title: t(spec.title),
    note: spec.note === undefined ? undefined : t(spec.note),
    option: walk(spec.option, t) as FigureSpec['option'],
  };
}
