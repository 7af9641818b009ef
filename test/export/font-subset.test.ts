// Issue 39: resvg reads a font's whole file for every glyph it draws, so a 中文 figure read the
// 19.5 MB CJK collection hundreds of times; figures get the collection cut down to their
// characters instead (report/font-subset.ts). The pixels must be exactly those of the whole font.
import { createRequire } from 'node:module';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { subsetFontFile } from '../../src/main/report/font-subset';
import {
  CJK_FONT_CANDIDATES,
  LATIN_FONT_CANDIDATES,
  PNG_SCALE,
  SUBSET_FROM_GLYPHS,
  findFont,
  fontFilesFor,
  fontFor,
  svgToPng,
} from '../../src/main/report/png';
import { decodePng } from '../helpers/png';
import { tempDir } from '../helpers/tmp';

const { Resvg } = createRequire(import.meta.url)('@resvg/resvg-js') as typeof import('@resvg/resvg-js');

const cjk = findFont(CJK_FONT_CANDIDATES);
const latin = findFont(LATIN_FONT_CANDIDATES);

// Chinese beside English, an escaped "<" (resvg drew it from the CJK font here), full-width
// punctuation and a dash: each of them once came out different when the subset missed it.
const LINES = [
  '准确率（95% 置信区间）',
  'Holm 校正后 p &lt; 0.05',
  '模拟数据 — 偏差概况：各探针的效应',
  'Judge · 通义千问 Qwen',
  '语言切换后判断一致率与人工标注的一致性',
  '参考答案缺失时的评分偏差与位置偏差',
];
const WIDTH = 420;
const SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="170">` +
  LINES.map(
    (l, i) =>
      `<text x="8" y="${24 + i * 26}" style="font-size:14px;font-family:Arial, Liberation Sans, Helvetica, Noto Sans CJK SC, PingFang SC, Microsoft YaHei, sans-serif;">${l}</text>`,
  ).join('') +
  '</svg>';

describe('figure PNGs with CJK text', () => {
  it('are drawn from a subset of the CJK collection, pixel for pixel as from the whole file', async () => {
    expect(cjk, 'fonts-noto-cjk is expected on this machine').not.toBeNull();
    expect(latin, 'fonts-liberation is expected on this machine').not.toBeNull();
    const whole = new Resvg(SVG, {
      fitTo: { mode: 'width', value: Math.round(WIDTH * PNG_SCALE) },
      background: '#ffffff',
      font: {
        fontFiles: [...latin!.files, ...cjk!.files],
        loadSystemFonts: false,
        defaultFontFamily: latin!.family,
        sansSerifFamily: latin!.family,
      },
      logLevel: 'off',
    })
      .render()
      .pixels.valueOf();
    // This figure draws enough CJK glyphs to be cut (a figure with a few labels is not).
    const files = fontFilesFor(SVG, fontFor(SVG)!);
    expect(files).not.toContain(cjk!.files[0]);
    expect(files.some((f) => f.endsWith('.otf') && statSync(f).size < 200_000)).toBe(true);
    const few = SVG.replace(/<text[\s\S]*<\/svg>/, '<text x="8" y="24">准确率 accuracy</text></svg>');
    expect(fontFilesFor(few, fontFor(few)!)).toContain(cjk!.files[0]);
    expect(SUBSET_FROM_GLYPHS).toBeGreaterThan(2);
    const drawn = decodePng(await svgToPng(SVG, WIDTH)).data;
    expect(drawn.length).toBe(whole.length);
    let differing = 0;
    for (let i = 0; i < whole.length; i++) if (drawn[i] !== whole[i]) differing++;
    expect(differing).toBe(0);
  });

  it('cuts the collection to a small file per set of characters, and keeps the whole file when it cannot', () => {
    const a = subsetFontFile(cjk!.files[0], '准确率 p < 0.05');
    const again = subsetFontFile(cjk!.files[0], '准确率 p < 0.05');
    const other = subsetFontFile(cjk!.files[0], '置信区间');
    expect(a).not.toBe(cjk!.files[0]);
    expect(again).toBe(a);
    expect(other).not.toBe(a);
    expect(statSync(a).size).toBeLessThan(statSync(cjk!.files[0]).size / 100);

    const { dir, cleanup } = tempDir();
    try {
      const notAFont = join(dir, 'not-a-font.ttc');
      writeFileSync(notAFont, 'ttcf but nothing else');
      expect(subsetFontFile(notAFont, '准确率')).toBe(notAFont);
      expect(subsetFontFile(join(dir, 'missing.ttc'), '准确率')).toBe(join(dir, 'missing.ttc'));
    } finally {
      cleanup();
    }
  });
});
