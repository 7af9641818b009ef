// The main build's JavaScript is ASCII: V8 holds a script's source for as long as its functions
// live, as two bytes a character when one character is beyond Latin-1 (issue 39: the core chunk
// 2.2 MiB of the export's heap instead of 1.0, ECharts' one-file build 2.1 instead of 1.1).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { asciiOnlyJs } from '../../scripts/ascii-js.mjs';
import { assertBuilt, ROOT } from '../helpers/cli';

describe('asciiOnlyJs', () => {
  it('escapes every non-ASCII unit and leaves the program what it was', () => {
    const source = 'const s = "中文 – é 😀"; const r = /[中文]+/u; const t = `→${s}`; [s, r.test("文"), t]';
    const ascii = asciiOnlyJs(source);
    expect(ascii).not.toMatch(/[\u0080-\uffff]/);
    expect(ascii).toContain('\\u4e2d\\u6587');
    expect(ascii).toContain('\\ud83d\\ude00');
    expect(new Script(ascii).runInNewContext()).toEqual(new Script(source).runInNewContext());
  });

  it('leaves ASCII text as it is', () => {
    expect(asciiOnlyJs('a = "\\u4e2d"; // ok\n')).toBe('a = "\\u4e2d"; // ok\n');
  });
});

describe('the built main process', () => {
  const main = join(ROOT, 'out', 'main');

  it('has only ASCII in its chunks and in its ECharts copy', () => {
    assertBuilt();
    const files = [
      ...readdirSync(main).filter((f) => /\.(c?js)$/.test(f)),
      ...readdirSync(join(main, 'chunks')).map((f) => join('chunks', f)),
    ];
    expect(files).toContain('echarts.min.cjs');
    const wide = files.filter((f) => /[\u0080-\uffff]/.test(readFileSync(join(main, f), 'utf8')));
    expect(wide).toEqual([]);
  });

  it("draws a Chinese figure from its ECharts copy as the package's own file does", () => {
    assertBuilt();
    const req = createRequire(import.meta.url);
    type ECharts = typeof import('echarts');
    const svg = (echarts: ECharts) => {
      const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 400, height: 300 });
      chart.setOption({
        animation: false,
        title: { text: '判断翻转率 – 中文' },
        xAxis: { type: 'category', data: ['一月', '二月'] },
        yAxis: { type: 'time' },
        series: [{ type: 'bar', data: [1, 2] }],
      });
      // Class names number the charts and styles each copy has drawn so far in this process.
      const out = chart.renderToSVGString().replace(/zr\d+-cls-\d+/g, 'zr-cls');
      chart.dispose();
      return out;
    };
    const copy = svg(req(join(main, 'echarts.min.cjs')) as ECharts);
    expect(copy).toContain('判断翻转率');
    expect(copy).toBe(svg(req('echarts/dist/echarts.min.js') as ECharts));
  });
});
