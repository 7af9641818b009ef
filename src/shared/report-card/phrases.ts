// The card's words put into a language where they are shown. Rows carry phrases (a key and
// parameters, see `CardPhrase`); a protocol's card dictionary (its plug-in's `reportCard.text`,
// also handed to the app's registry) holds its templates and its parameter words, the card's
// own dictionary (text.ts) the generic ones. The page, the figure and every export go through
// `cardSpeaker`, so they say the same thing in each language.
import type { ExperimentStatus } from '../experiments';
import type { FigureLanguage } from '../report/figure-i18n';
import { CARD_TEXT, type CardText } from './text';
import type { CardExperiment, CardPhrase, CardWords, HeadlineRow, ReportCard } from './types';

export type { CardWords };

export type CardDictionary = Record<FigureLanguage, CardWords>;

/** A protocol's card dictionary by protocol id; undefined for a protocol without one. */
export type CardDictionaries = (protocol: string) => CardDictionary | undefined;

export const NO_DICTIONARIES: CardDictionaries = () => undefined;

function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => params[name] ?? whole);
}

/** A phrase in the words of `dicts` (the first that knows the key wins). */
export function phraseIn(phrase: CardPhrase, dicts: readonly (CardWords | undefined)[]): string {
  const known = dicts.filter((d): d is CardWords => !!d);
  const params: Record<string, string> = {};
  for (const [name, v] of Object.entries(phrase.params ?? {})) {
    const raw = String(v);
    params[name] = known.map((d) => d.values?.[name]?.[raw]).find((w) => w !== undefined) ?? raw;
  }
  const template = known.map((d) => d.phrases[phrase.key]).find((t) => t !== undefined);
  // A key no dictionary knows (a protocol newer than its words) still shows its values.
  if (template === undefined) return [phrase.key, ...Object.values(params)].join(' ');
  return fill(template, params);
}

export interface CardSpeaker {
  lang: FigureLanguage;
  /** A phrase of an experiment's protocol (or the card's own, e.g. agreement with people). */
  phrase(phrase: CardPhrase, protocol: string): string;
  /** The protocol's title in this language. */
  protocolTitle(e: Pick<CardExperiment, 'protocol' | 'protocolTitle'>): string;
  /** A headline row's measure in this language: the protocol's words, the card's, else its label. */
  measure(row: Pick<HeadlineRow, 'measure' | 'label'>, protocol: string): string;
  /** The experiment's run status in this language. */
  runStatus(status: ExperimentStatus): string;
  /**
   * What a row says beside its value: "undefined: why" when the value is undefined, "no interval:
   * why" when only its interval is, else the note as is (or nothing).
   */
  rowNote(row: Pick<HeadlineRow, 'value' | 'ci' | 'note'>, protocol: string): string;
}

export function cardSpeaker(
  lang: FigureLanguage,
  protocols: CardDictionaries = NO_DICTIONARIES,
): CardSpeaker {
  const t = CARD_TEXT[lang];
  const phrase = (p: CardPhrase, protocol: string) => phraseIn(p, [protocols(protocol)?.[lang], t.words]);
  return {
    lang,
    phrase,
    protocolTitle: (e) => protocols(e.protocol)?.[lang].title ?? e.protocolTitle,
    measure: (row, protocol) =>
      protocols(protocol)?.[lang].measures?.[row.measure] ?? t.measures[row.measure] ?? row.label,
    runStatus: (s) => t.runStatuses[s],
    rowNote(row, protocol) {
      const why = row.note ? phrase(row.note, protocol) : '';
      if (row.value === null) return why ? fill(t.undefinedWhy, { why }) : t.undefinedValue;
      if (!row.ci) return why ? fill(t.noIntervalWhy, { why }) : t.noInterval;
      return why;
    },
  };
}

/**
 * A card with the words every table, figure and file of it is written in: the card's own (`t`)
 * and the speaker for its protocols' phrases (`say`), made once for all of them.
 */
export interface CardView {
  card: ReportCard;
  lang: FigureLanguage;
  t: CardText;
  say: CardSpeaker;
}

export function cardView(
  card: ReportCard,
  lang: FigureLanguage = 'en',
  protocols: CardDictionaries = NO_DICTIONARIES,
): CardView {
  return { card, lang, t: CARD_TEXT[lang], say: cardSpeaker(lang, protocols) };
}
