// The report card as tables (the LaTeX and JSON exports and the figure draw these): the gates
// first, then every headline figure with its experiment, dataset and n.
import { MISSING, toFixedText, type CI } from '../report/format';
import type { FigureLanguage } from '../report/figure-i18n';
import { col, type Table } from '../report/table';
import { gateName } from './gates';
import { intervalTextColumn, N_COLUMN, numberColumn } from '../report/columns';
import type { CardView } from './phrases';
import { CARD_TEXT, type CardText } from './text';
import type { CardExperiment, GateCheck, GateDefinition, ReportCard, ValueUnit } from './types';

/** A value as the card shows it: shares in percent with one decimal, other numbers with two. */
export function formatValue(unit: ValueUnit, v: number | null | undefined): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return MISSING;
  return unit === 'pct' ? `${toFixedText(v * 100, 1)}%` : toFixedText(v, 2);
}

export function formatInterval(unit: ValueUnit, ci: CI | null | undefined): string {
  if (!ci) return MISSING;
  return `[${formatValue(unit, ci[0])}, ${formatValue(unit, ci[1])}]`;
}

/** A gate's rule in words: "≥ 90.0%", "|x| < 0.20", with "(95% CI clear)" when it must be. */
export function gateRule(d: GateDefinition, lang: FigureLanguage = 'en'): string {
  const t = formatValue(d.unit, d.threshold);
  const rule = d.comparator === 'at_least' ? `≥ ${t}` : d.comparator === 'at_most' ? `≤ ${t}` : `< ${t}`;
  if (!d.ciMustClear) return rule;
  return `${rule} ${lang === 'zh' ? '（95% 区间整体达标）' : '(whole 95% CI)'}`;
}

/** Where a gate's threshold comes from, in `lang`; "set by the researcher" once changed. */
export function gateSource(d: Pick<GateDefinition, 'id' | 'source' | 'text'>, lang: FigureLanguage): string {
  const t = CARD_TEXT[lang];
  return d.source === null ? t.researcherSet : (d.text?.[lang]?.source ?? d.source);
}

/** The experiment's name with what answered it when that was not a live judge: " [simulated: …]". */
export function experimentName(
  e: Pick<CardExperiment, 'name' | 'simulated' | 'recorded'>,
  lang: FigureLanguage = 'en',
): string {
  const t = CARD_TEXT[lang];
  const marks = [e.simulated ? t.simulated : null, e.recorded ? t.recorded : null].filter(Boolean);
  return marks.length ? `${e.name} [${marks.join('; ')}]` : e.name;
}

/** The protocol of the experiment a gate check comes from ('' for one no longer on the card). */
export function checkProtocol(card: ReportCard, c: Pick<GateCheck, 'experimentId'>): string {
  return card.experiments.find((e) => e.experimentId === c.experimentId)?.protocol ?? '';
}

/** A card table's file stem, and its title naming the judge ("Judge report card: openai:gpt-4.1 — Gates"). */
function cardTableHeading(
  { card, t }: CardView,
  id: string,
  what: string,
  caption: string,
): Pick<Table, 'id' | 'title' | 'caption'> {
  return { id, title: `${t.title}: ${card.judge.kind}:${card.judge.model} — ${what}`, caption };
}

/** The card's words that are one plain string (a column header among them). */
type CardWord = { [K in keyof CardText]: CardText[K] extends string ? K : never }[keyof CardText];

/** Text columns headed by the card's word of the same key, in this order. */
const textColumns = (t: CardText, ...keys: CardWord[]) => keys.map((k) => col(k, t[k], 'text'));

export function gatesTable(view: CardView): Table {
  const { card, lang, t, say } = view;
  return {
    ...cardTableHeading(view, 'report-card-gates', t.gatesTitle, t.gatesCaption),
    columns: [
      ...textColumns(t, 'gate', 'rule', 'status'),
      numberColumn('value', t.value),
      intervalTextColumn('ci', t.interval),
      N_COLUMN,
      ...textColumns(t, 'experiment', 'dataset', 'condition', 'source'),
    ],
    rows: card.gates.map((g) => {
      const d = g.decisive;
      return {
        gate: gateName(g.definition, lang),
        rule: gateRule(g.definition, lang),
        status: t.statuses[g.status],
        value: d ? formatValue(g.definition.unit, d.value) : MISSING,
        ci: d ? formatInterval(g.definition.unit, d.ci) : MISSING,
        n: d ? d.n : null,
        experiment: d?.experimentName ?? '',
        dataset: d?.dataset ?? '',
        condition: d ? say.phrase(d.condition, checkProtocol(card, d)) : '',
        source: gateSource(g.definition, lang),
      };
    }),
  };
}

export function rowsTable(view: CardView): Table {
  const { card, lang, t, say } = view;
  return {
    ...cardTableHeading(view, 'report-card-rows', t.rowsTitle, t.rowsCaption),
    columns: [
      ...textColumns(t, 'experiment', 'protocol', 'dataset', 'judge', 'measure', 'condition'),
      N_COLUMN,
      numberColumn('value', t.value),
      intervalTextColumn('ci', t.interval),
      ...textColumns(t, 'note'),
    ],
    rows: card.experiments.flatMap((e) =>
      e.rows.map((r) => ({
        experiment: experimentName(e, lang),
        protocol: say.protocolTitle(e),
        dataset: e.dataset,
        judge: r.judge,
        measure: say.measure(r, e.protocol),
        condition: say.phrase(r.condition, e.protocol),
        n: r.n,
        value: formatValue(r.unit, r.value),
        ci: formatInterval(r.unit, r.ci),
        note: say.rowNote(r, e.protocol),
      })),
    ),
  };
}
