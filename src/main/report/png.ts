// SVG → PNG with resvg, and the fonts a figure's text needs. Node only, and apart from the
// ECharts side (figures.ts) so the PNG workers (png-worker.ts) load only this and resvg.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Resvg from '@resvg/resvg-js';
import { subsetFontFile } from './font-subset';

// Loaded on first use: a command that exports nothing (and `serve` before its first export)
// never needs the native renderer.
const requireResvg = createRequire(import.meta.url);
let resvgLib: typeof Resvg | undefined;
const resvg = (): typeof Resvg => (resvgLib ??= requireResvg('@resvg/resvg-js') as typeof Resvg);

/** PNG pixels per SVG pixel: a figure laid out at 96 dpi printed at 300 dpi. */
export const PNG_SCALE = 300 / 96;

export interface FontChoice {
  /** Font files to load; the first one decides whether the choice is available. */
  files: string[];
  family: string;
}

// Loading fonts dominates PNG time: resvg parses every file per render, and Noto Sans CJK alone
// takes over a second (the system font scan too). So a figure loads the CJK font only when its
// text has CJK characters, and otherwise one Latin family.
export const CJK_FONT_CANDIDATES: readonly FontChoice[] = [
  { files: ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'], family: 'Noto Sans CJK SC' },
  { files: ['/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc'], family: 'Noto Sans CJK SC' },
  { files: ['/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc'], family: 'Noto Sans CJK SC' },
  { files: ['/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf'], family: 'Noto Sans CJK SC' },
  { files: ['/System/Library/Fonts/PingFang.ttc'], family: 'PingFang SC' },
  { files: ['C:\\Windows\\Fonts\\msyh.ttc'], family: 'Microsoft YaHei' },
];

// Arial-metric families first: ECharts SSR has no font metrics and lays text out with Arial-like
// widths, so a wider face (DejaVu) would make legend entries overlap.
export const LATIN_FONT_CANDIDATES: readonly FontChoice[] = [
  {
    files: [
      '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
      '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
    ],
    family: 'Liberation Sans',
  },
  {
    files: [
      '/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf',
      '/usr/share/fonts/liberation-sans/LiberationSans-Bold.ttf',
    ],
    family: 'Liberation Sans',
  },
  {
    files: [
      '/System/Library/Fonts/Supplemental/Arial.ttf',
      '/System/Library/Fonts/Supplemental/Arial Bold.ttf',
    ],
    family: 'Arial',
  },
  { files: ['/Library/Fonts/Arial.ttf', '/Library/Fonts/Arial Bold.ttf'], family: 'Arial' },
  { files: ['C:\\Windows\\Fonts\\arial.ttf', 'C:\\Windows\\Fonts\\arialbd.ttf'], family: 'Arial' },
  {
    files: [
      '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
      '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
    ],
    family: 'DejaVu Sans',
  },
];

/** A Noto font in the folders Linux distributions put it in (Debian's first). */
const linuxNoto = (file: string, family: string): FontChoice[] =>
  ['/usr/share/fonts/truetype/noto', '/usr/share/fonts/noto', '/usr/share/fonts/google-noto'].map((dir) => ({
    files: [`${dir}/${file}`],
    family,
  }));

// Arabic and Telugu (the bundled TyDi QA sample has both; Debian `fonts-noto-core`): like
// CJK, loaded only when a figure's text has such characters, since every file costs load time.
export const ARABIC_FONT_CANDIDATES: readonly FontChoice[] = [
  ...linuxNoto('NotoSansArabic-Regular.ttf', 'Noto Sans Arabic'),
  { files: ['/System/Library/Fonts/GeezaPro.ttc'], family: 'Geeza Pro' },
  { files: ['C:\\Windows\\Fonts\\segoeui.ttf'], family: 'Segoe UI' },
];

export const TELUGU_FONT_CANDIDATES: readonly FontChoice[] = [
  ...linuxNoto('NotoSansTelugu-Regular.ttf', 'Noto Sans Telugu'),
  { files: ['/System/Library/Fonts/Kohinoor.ttc'], family: 'Kohinoor Telugu' },
  { files: ['C:\\Windows\\Fonts\\gautami.ttf'], family: 'Gautami' },
];

/** The first candidate whose main file exists, with those of its other files that exist. */
export function findFont(candidates: readonly FontChoice[]): FontChoice | null {
  const found = candidates.find((c) => existsSync(c.files[0]));
  return found ? { family: found.family, files: found.files.filter((f) => existsSync(f)) } : null;
}

// CJK ideographs, kana, hangul, CJK punctuation and full-width forms.
const CJK_TEXT =
  /[\u2E80-\u2FDF\u3000-\u30FF\u3100-\u312F\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/;

// Arabic block, its supplement and presentation forms; the Telugu block.
const ARABIC_TEXT = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
const TELUGU_TEXT = /[\u0C00-\u0C7F]/;

const SCRIPTS = [
  { text: ARABIC_TEXT, candidates: ARABIC_FONT_CANDIDATES },
  { text: TELUGU_TEXT, candidates: TELUGU_FONT_CANDIDATES },
];

/** The Arabic and Telugu fonts an SVG's text needs (and exists on this machine). */
function scriptFonts(svg: string): { text: RegExp; font: FontChoice }[] {
  return SCRIPTS.filter((s) => s.text.test(svg)).flatMap((s) => {
    const font = findFont(s.candidates);
    return font ? [{ text: s.text, font }] : [];
  });
}

/**
 * Works around resvg's font fallback for Arabic and Telugu <text>: glyphs found by fallback lose
 * their conjunct shaping, and a text that starts in the script and goes on in Latin comes out as
 * boxes ("తెలుగు · te"). A text wholly in the script (spaces and punctuation aside) therefore
 * names the script's font first, which shapes it properly. Mixed texts are left to the fallback,
 * which draws them when they start in Latin; figures put a label in a script on a line of its own.
 */
export function preferScriptFonts(svg: string): string {
  const found = scriptFonts(svg);
  if (found.length === 0) return svg;
  return svg.replace(
    /(<text\b[^>]*>)([^<]*)(<\/text>)/g,
    (whole, open: string, content: string, close: string) => {
      const script = found.find((f) => f.text.test(content));
      if (!script) return whole;
      const rest = content.replace(new RegExp(script.text.source, 'g'), '');
      if (/[\p{L}\p{N}]/u.test(rest)) return whole;
      const named = open.replace(/font-family:/, `font-family:${script.font.family}, `);
      return named === open ? whole : `${named}${content}${close}`;
    },
  );
}

/**
 * The fonts for an SVG: a Latin family, plus a CJK, Arabic or Telugu font when its text has such
 * characters (resvg falls back per glyph). Null means no known font file exists: use the system
 * fonts.
 */
export function fontFor(svg: string): FontChoice | null {
  const found = scriptFonts(svg);
  const latin = findFont(LATIN_FONT_CANDIDATES);
  const extra = [
    CJK_TEXT.test(svg) ? findFont(CJK_FONT_CANDIDATES) : null,
    ...found.map((f) => f.font),
  ].filter((f): f is FontChoice => f !== null);
  const files = [...(latin?.files ?? []), ...extra.flatMap((f) => f.files)];
  if (files.length === 0) return null;
  return { family: latin?.family ?? extra[0].family, files };
}

export interface PngOptions {
  /** Defaults to fontFor(svg); null renders with the system fonts. */
  font?: FontChoice | null;
}

/** CJK glyphs a figure draws from which its CJK font is cut down (see fontFilesFor). */
export const SUBSET_FROM_GLYPHS = 60;
const CJK_GLYPHS = new RegExp(CJK_TEXT.source, 'g');
const CJK_FILES = new Set(CJK_FONT_CANDIDATES.flatMap((c) => c.files));
const LATIN_FAMILIES = new Set(LATIN_FONT_CANDIDATES.map((c) => c.family));

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
// Printable ASCII always: resvg may take a Latin character next to CJK text from the CJK font
// (a "<" in "Holm 校正后 p < 0.05" was), so each must be in the subset whatever the text says.
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

/** The characters an SVG's text draws (tags left out, references read), and printable ASCII. */
function drawnText(svg: string): string {
  const text = svg
    .replace(/<[^>]*>/g, '')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]);
  return ASCII + text;
}

/**
 * The font files as resvg gets them: a CJK collection cut down to the figure's characters
 * (font-subset.ts: resvg reads a font's whole file for every glyph). Only beside a Latin family:
 * the CJK glyphs then come from resvg's fallback, which takes the collection's first face, the
 * face the subset keeps; without one, the collection's own family is named and it stays whole.
 */
export function fontFilesFor(svg: string, font: FontChoice): string[] {
  if (!LATIN_FAMILIES.has(font.family) || !font.files.some((f) => CJK_FILES.has(f))) return font.files;
  const text = drawnText(svg);
  // Cutting costs ~0.1 CPU-s and ~35–60 MB for a moment (HarfBuzz reads the whole collection into
  // its memory); each CJK glyph drawn from the whole file costs a read of it (~3–4 ms for Noto's
  // 19.5 MB). A figure with a few CJK labels is drawn from the whole file as before.
  if ((text.match(CJK_GLYPHS) ?? []).length < SUBSET_FROM_GLYPHS) return font.files;
  return font.files.map((f) => (CJK_FILES.has(f) ? subsetFontFile(f, text) : f));
}

/** What resvg is given for an SVG: the text with script fonts named, and the render options. */
function resvgInput(svg: string, width: number, options: PngOptions): [string, Resvg.ResvgRenderOptions] {
  const font = options.font === undefined ? fontFor(svg) : options.font;
  return [
    font ? preferScriptFonts(svg) : svg,
    {
      fitTo: { mode: 'width', value: Math.round(width * PNG_SCALE) },
      background: '#ffffff',
      font: font
        ? {
            fontFiles: fontFilesFor(svg, font),
            loadSystemFonts: false,
            defaultFontFamily: font.family,
            sansSerifFamily: font.family,
          }
        : { loadSystemFonts: true },
      logLevel: 'off',
      // resvg-js (2.6) copies the finished canvas into a cropped one even when the crop is the whole
      // canvas, two canvases for a moment (13 MiB each at 300 dpi for a 760 × 460 figure); an empty
      // crop rectangle is skipped, so the canvas is handed on as drawn: the same pixels, the same
      // bytes (the golden PNG digests), one canvas fewer.
      crop: { left: 0, top: 0, right: 0, bottom: 0 },
    },
  ];
}

/**
 * SVG → PNG at 300 dpi equivalent. When no known font file exists it falls back to the system
 * fonts (Chinese glyphs may then be missing): a figure is never lost for want of a font.
 */
export async function svgToPng(svg: string, width: number, options: PngOptions = {}): Promise<Buffer> {
  // renderAsync runs on the libuv pool, so the Electron main process stays responsive.
  const image = await resvg().renderAsync(...resvgInput(svg, width, options));
  return image.asPng();
}

/** svgToPng on this thread, for a worker (png-worker.ts): the same renderer and options, the same bytes. */
export function svgToPngSync(svg: string, width: number, options: PngOptions = {}): Buffer {
  const [text, opts] = resvgInput(svg, width, options);
  return new (resvg().Resvg)(text, opts).render().asPng();
}
