// The report card on one page (SVG and PNG through the figure kit): the judge, its gates with
// pass / fail / not measured, and the headline figures grouped by experiment. Drawn with ECharts
// graphic text, so the app's figure renderer and fonts (CJK included) apply unchanged.
import { FONT_FAMILY, OKABE_ITO, TEXT, type FigureSpec } from '../report/chart-kit';
import type { FigureLanguage } from '../report/figure-i18n';
import { cardSpeaker, NO_DICTIONARIES, type CardDictionaries } from './phrases';
import { checkProtocol, experimentName, formatInterval, formatValue, gateRule, measureLabel } from './tables';
import { CARD_TEXT } from './text';
import type { GateStatus, ReportCard } from './types';

const WIDTH = 1000;
const LINE = 20;
const STATUS_COLOUR: Record<GateStatus, string> = {
  pass: OKABE_ITO.green,
  warn: OKABE_ITO.orange,
  fail: OKABE_ITO.vermillion,
  not_measured: '#777777',
  incomplete: '#777777',
  off: '#777777',
};

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

export function reportCardFigure(
  card: ReportCard,
  lang: FigureLanguage = 'en',
  protocols: CardDictionaries = NO_DICTIONARIES,
): FigureSpec {
  const t = CARD_TEXT[lang];
  const say = cardSpeaker(lang, protocols);
  const els: { type: 'text'; x: number; y: number; style: { text: string; fill: string; font: string } }[] =
    [];
  let y = 16;
  const text = (x: number, s: string, opts: { bold?: boolean; size?: number; fill?: string } = {}) =>
    els.push({
      type: 'text',
      x,
      y,
      style: {
        text: s,
        fill: opts.fill ?? TEXT,
        font: `${opts.bold ? 'bold ' : ''}${opts.size ?? 12}px ${FONT_FAMILY}`,
      },
    });
  text(24, `${t.title}: ${card.judge.kind}:${card.judge.model}`, { bold: true, size: 18 });
  y += 34;
  text(24, t.gatesTitle, { bold: true, size: 14 });
  y += LINE + 4;
  for (const g of card.gates) {
    const d = g.decisive;
    text(24, t.gates[g.definition.id]);
    text(230, gateRule(g.definition, lang));
    text(400, t.statuses[g.status], { bold: true, fill: STATUS_COLOUR[g.status] });
    if (d)
      text(
        500,
        clip(
          `${formatValue(g.definition.unit, d.value)} ${formatInterval(g.definition.unit, d.ci)} · n = ${d.n} · ${d.experimentName} · ${d.dataset} · ${say.phrase(d.condition, checkProtocol(card, d))}`,
          80,
        ),
      );
    y += LINE;
  }
  y += 12;
  text(24, t.rowsTitle, { bold: true, size: 14 });
  y += LINE + 4;
  if (!card.experiments.length) {
    text(24, t.noExperiments);
    y += LINE;
  }
  for (const e of card.experiments) {
    text(
      24,
      clip(
        `${experimentName(e, lang)} (${say.runStatus(e.status)}) — ${say.protocolTitle(e)} · ${t.dataset}: ${e.dataset}`,
        110,
      ),
      {
        bold: true,
      },
    );
    y += LINE;
    if (e.note) {
      text(40, say.phrase(e.note, e.protocol), { fill: '#555555' });
      y += LINE;
    }
    for (const r of e.rows) {
      text(40, clip(`${measureLabel(r, lang)}${e.labels.length > 1 ? ` (${r.judge})` : ''}`, 40));
      text(360, clip(say.phrase(r.condition, e.protocol), 34));
      text(620, formatValue(r.unit, r.value));
      text(700, formatInterval(r.unit, r.ci));
      text(860, `n = ${r.n}`);
      y += LINE;
      // An undefined value or interval says why, on a line of its own under the row.
      const why = r.value === null || !r.ci ? say.rowNote(r, e.protocol) : '';
      if (why) {
        text(360, clip(why, 100), { fill: '#555555', size: 11 });
        y += LINE - 4;
      }
    }
    y += 6;
  }
  return {
    id: 'report-card',
    title: `${t.title}: ${card.judge.kind}:${card.judge.model}`,
    width: WIDTH,
    height: y + 16,
    option: { animation: false, backgroundColor: '#ffffff', graphic: { elements: els } },
  };
}
