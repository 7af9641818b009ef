// Exported PNGs draw Arabic and Telugu labels: resvg only gets the font files we hand it, so a
// figure with those scripts must load the Noto fonts (Debian fonts-noto-core, installed by .ci/run).
import { describe, expect, it } from 'vitest';
import {
  ARABIC_FONT_CANDIDATES,
  findFont,
  fontFor,
  LATIN_FONT_CANDIDATES,
  preferScriptFonts,
  renderSvg,
  svgToPng,
  TELUGU_FONT_CANDIDATES,
  type FontChoice,
} from '../../../src/main/report/figures';
import { calibrationFigure } from '../../../src/shared/protocols/reference-sensitivity/report/figures';
import type { RefSensMetrics } from '../../../src/shared/protocols/reference-sensitivity/types';
import { changedPixels, decodePng } from '../../helpers/png';

const ARABIC = 'حكم عربي';
const TELUGU = 'తెలుగు న్యాయమూర్తి';

function metrics(judges: string[]): RefSensMetrics {
  return {
    calibration: judges.map((judge) => ({
      judge,
      language: 'ar',
      n: 10,
      c1_accept: 0.9,
      c1_accept_ci: [0.6, 0.98],
      c2_accept: 0.3,
      c2_accept_ci: [0.1, 0.6],
      cgp: 0.6,
      cgp_ci: [0.2, 0.8],
    })),
    acceptance: [],
    flips: [],
    string_baseline: { answers: [], em_agreement: [] },
    human: { settings: [], nr_rv_flips: [] },
    usage: [],
    failures: [],
  };
}

const without = (font: FontChoice, file: string): FontChoice => ({
  ...font,
  files: font.files.filter((f) => f !== file),
});

describe('figure PNGs with Arabic and Telugu labels', () => {
  it('load the Arabic and Telugu fonts only for figures that have such text', () => {
    const arabic = findFont(ARABIC_FONT_CANDIDATES);
    const telugu = findFont(TELUGU_FONT_CANDIDATES);
    expect(arabic, 'fonts-noto-core is expected on this machine (.ci/run installs it)').not.toBeNull();
    expect(telugu, 'fonts-noto-core is expected on this machine (.ci/run installs it)').not.toBeNull();
    const both = fontFor(renderSvg(calibrationFigure(metrics([ARABIC, TELUGU]))))!;
    expect(both.files).toEqual(expect.arrayContaining([arabic!.files[0], telugu!.files[0]]));
    const latinOnly = fontFor(renderSvg(calibrationFigure(metrics(['GPT judge']))))!;
    expect(latinOnly.files).toEqual(findFont(LATIN_FONT_CANDIDATES)!.files);
  });

  it('draw the glyphs: without either script font the label comes out different (boxes)', async () => {
    const spec = calibrationFigure(metrics([ARABIC, TELUGU]));
    const svg = renderSvg(spec);
    expect(svg).toContain(ARABIC);
    expect(svg).toContain(TELUGU);
    const font = fontFor(svg)!;
    const png = async (f: FontChoice) => decodePng(await svgToPng(svg, spec.width, { font: f }));
    const full = await png(font);
    const noArabic = await png(without(font, findFont(ARABIC_FONT_CANDIDATES)!.files[0]));
    const noTelugu = await png(without(font, findFont(TELUGU_FONT_CANDIDATES)!.files[0]));
    // Without a script's font resvg draws empty boxes (.notdef) for its glyphs: the label's
    // pixels change. A label of a few words at 300 dpi is thousands of pixels.
    expect(changedPixels(full, noArabic)).toBeGreaterThan(1000);
    expect(changedPixels(full, noTelugu)).toBeGreaterThan(1000);
  });

  it('name the script font first for a text wholly in that script, and leave mixed texts alone', () => {
    const svg = (t: string) =>
      `<svg><text style="font-size:12px;font-family:Arial, sans-serif;">${t}</text><text>GPT</text></svg>`;
    expect(preferScriptFonts(svg('తెలుగు న్యాయమూర్తి'))).toContain('font-family:Noto Sans Telugu, Arial');
    expect(preferScriptFonts(svg('حكم، عربي'))).toContain('font-family:Noto Sans Arabic, Arial');
    expect(preferScriptFonts(svg('GPT తెలుగు'))).toBe(svg('GPT తెలుగు'));
    expect(preferScriptFonts(svg('GPT'))).toBe(svg('GPT'));
  });
});
