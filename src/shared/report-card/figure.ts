// The report card on one page (SVG and PNG through the figure kit): the judge, its gates with
// pass / fail / not measured, and the headline figures grouped by experiment. Drawn with ECharts
// graphic text, so the app's figure renderer and fonts (CJK included) apply unchanged.
import { FONT_FAMILY, OKABE_ITO, TEXT, type FigureSpec } from '../report/chart-kit';
import { gateName } from './gates';
import type { CardView } from './phrases';
import { checkProtocol, experimentName, formatInterval, formatValue, gateRule } from './tables';
import type { GateStatus } from './types';

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

// Text is wrapped inside its column, never cut: a clipped label ("…") hid which condition or
// experiment a number was about (issue 38). Widths are Arial's advance widths (the faces the
// figure kit names first; Liberation Sans has the same metrics), as zrender encodes them for
// ECharts' layout without a canvas: ASCII 32–126, in hundredths of an em plus 20, as characters.
// Anything else (CJK, ≤, κ, —) counts a full em, and bold 10 % more: a line may end early, never
// run into the next column.
const ARIAL_WIDTHS =
  "007LLmW'55;N0500LLLLLLLLLL00NNNLzWW\\\\WQb\\0FWLg\\bWb\\WQ\\WrWWQ000CL5LLFLL0LL**F*gLLLL5F0LF\\FFF5.5N";
const charWidth = (ch: string, size: number, bold: boolean) => {
  const code = ch.charCodeAt(0);
  const em =
    code >= 32 && code < 32 + ARIAL_WIDTHS.length ? (ARIAL_WIDTHS.charCodeAt(code - 32) - 20) / 100 : 1;
  return em * size * (bold ? 1.1 : 1);
};
const textWidth = (s: string, size: number, bold: boolean) =>
  [...s].reduce((w, ch) => w + charWidth(ch, size, bold), 0);
// Scripts written without spaces may break between any two of their characters.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

const OPENERS = '（「『【《〈“‘';
const CLOSERS = '）」』】》〉”’，。、；：！？';

/** `s` in lines of at most `width` px: broken at spaces, or between wide characters, or (a word longer than a line) anywhere. */
export function wrapText(s: string, width: number, size: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  // Tokens: runs of non-space narrow characters, single wide characters (an opening bracket kept
  // with the character after it, closing punctuation with the one before: no line starts with "）"),
  // and spaces.
  const wide = `[${OPENERS}]*${WIDE.source}[${CLOSERS}]*`;
  const tokens = s.match(new RegExp(`\\s+|${wide}|[^\\s${WIDE.source.slice(1, -1)}]+`, 'g')) ?? [];
  const push = () => {
    lines.push(line.trimEnd());
    line = '';
  };
  for (const tok of tokens) {
    if (/^\s+$/.test(tok)) {
      if (line) line += ' ';
      continue;
    }
    if (textWidth(line + tok, size, bold) <= width) {
      line += tok;
      continue;
    }
    if (line.trim()) push();
    // A token wider than a line on its own is broken where it must be.
    let rest = tok;
    while (textWidth(rest, size, bold) > width) {
      let cut = 1;
      while (cut < rest.length && textWidth(rest.slice(0, cut + 1), size, bold) <= width) cut++;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line.trim() || !lines.length) push();
  return lines;
}

export function reportCardFigure({ card, lang, t, say }: CardView): FigureSpec {
  const els: { type: 'text'; x: number; y: number; style: { text: string; fill: string; font: string } }[] =
    [];
  let y = 16;
  interface Cell {
    x: number;
    /** The column's width: its lines wrap inside it. */
    width: number;
    text: string;
    bold?: boolean;
    size?: number;
    fill?: string;
  }
  /** One row of cells side by side; the row is as tall as its longest cell. */
  const row = (cells: Cell[], lineHeight = LINE) => {
    let lines = 1;
    for (const c of cells) {
      const size = c.size ?? 12;
      const wrapped = wrapText(c.text, c.width, size, !!c.bold);
      lines = Math.max(lines, wrapped.length);
      wrapped.forEach((text, i) =>
        els.push({
          type: 'text',
          x: c.x,
          y: y + i * (size + 4),
          style: {
            text,
            fill: c.fill ?? TEXT,
            font: `${c.bold ? 'bold ' : ''}${size}px ${FONT_FAMILY}`,
          },
        }),
      );
    }
    const size = Math.max(...cells.map((c) => c.size ?? 12));
    y += lineHeight + (lines - 1) * (size + 4);
  };
  const RIGHT = WIDTH - 24;
  const title = `${t.title}: ${card.judge.kind}:${card.judge.model}`;
  row([{ x: 24, width: RIGHT - 24, text: title, bold: true, size: 18 }], 34);
  row([{ x: 24, width: RIGHT - 24, text: t.gatesTitle, bold: true, size: 14 }], LINE + 4);
  for (const g of card.gates) {
    const d = g.decisive;
    row([
      { x: 24, width: 200, text: gateName(g.definition, lang) },
      { x: 230, width: 164, text: gateRule(g.definition, lang) },
      { x: 400, width: 94, text: t.statuses[g.status], bold: true, fill: STATUS_COLOUR[g.status] },
      {
        x: 500,
        width: RIGHT - 500,
        text: d
          ? `${formatValue(g.definition.unit, d.value)} ${formatInterval(g.definition.unit, d.ci)} · n = ${d.n} · ${d.experimentName} · ${d.dataset} · ${say.phrase(d.condition, checkProtocol(card, d))}`
          : '',
      },
    ]);
  }
  y += 12;
  row([{ x: 24, width: RIGHT - 24, text: t.rowsTitle, bold: true, size: 14 }], LINE + 4);
  if (!card.experiments.length) row([{ x: 24, width: RIGHT - 24, text: t.noExperiments }]);
  for (const e of card.experiments) {
    row([
      {
        x: 24,
        width: RIGHT - 24,
        text: `${experimentName(e, lang)} (${say.runStatus(e.status)}) — ${say.protocolTitle(e)} · ${t.dataset}: ${e.dataset}`,
        bold: true,
      },
    ]);
    if (e.note) row([{ x: 40, width: RIGHT - 40, text: say.phrase(e.note, e.protocol), fill: '#555555' }]);
    for (const r of e.rows) {
      row([
        {
          x: 40,
          width: 312,
          text: `${say.measure(r, e.protocol)}${e.labels.length > 1 ? ` (${r.judge})` : ''}`,
        },
        { x: 360, width: 252, text: say.phrase(r.condition, e.protocol) },
        { x: 620, width: 76, text: formatValue(r.unit, r.value) },
        { x: 700, width: 156, text: formatInterval(r.unit, r.ci) },
        { x: 860, width: RIGHT - 860, text: `n = ${r.n}` },
      ]);
      // An undefined value or interval says why, on a line of its own under the row.
      const why = r.value === null || !r.ci ? say.rowNote(r, e.protocol) : '';
      if (why) row([{ x: 360, width: RIGHT - 360, text: why, fill: '#555555', size: 11 }], LINE - 4);
    }
    y += 6;
  }
  return {
    id: 'report-card',
    title,
    width: WIDTH,
    height: y + 16,
    option: { animation: false, backgroundColor: '#ffffff', graphic: { elements: els } },
  };
}
