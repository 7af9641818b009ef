// verify's recomparison of what is not text (issue 24): a PNG drawn again from its SVG by resvg and
// compared by bytes, else by decoded pixels (counting those that differ); a workbook by the value of
// every cell of every sheet, located as sheet!cell.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { pngCheck, xlsxCheck } from '../../src/main/paper/bundle-recompare';
import { svgToPng } from '../../src/main/report/figures';
import { buildWorkbook } from '../../src/main/report/xlsx';
import { col, type Table } from '../../src/shared/report/table';
import { decodePng } from '../helpers/png';

const svg = (fill: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40"><rect x="10" y="10" width="20" height="10" fill="${fill}"/></svg>`;

describe('PNG recomparison', () => {
  it('is equal for the same drawing and counts the pixels that differ otherwise', async () => {
    const stored = await svgToPng(svg('#336699'), 60);
    expect(await pngCheck('f.png', stored, svg('#336699'), 60)).toEqual({
      file: 'f.png',
      equal: true,
      differences: [],
    });
    const other = await pngCheck('f.png', stored, svg('#336698'), 60);
    expect(other.equal).toBe(false);
    // The count equals what an independent decoder finds between the two PNGs.
    const a = decodePng(stored);
    const b = decodePng(await svgToPng(svg('#336698'), 60));
    let differing = 0;
    for (let i = 0; i < a.data.length; i += 4)
      if (a.data.slice(i, i + 4).join() !== b.data.slice(i, i + 4).join()) differing++;
    expect(differing).toBeGreaterThan(0);
    expect(other.differences).toEqual([
      {
        where: 'pixels',
        stored: `${a.width}×${a.height}`,
        recomputed: `${differing} of ${a.width * a.height} pixels differ`,
      },
    ]);
    const wider = await pngCheck('f.png', stored, svg('#336699'), 80);
    expect(wider.differences[0].where).toBe('size');
  });
});

describe('XLSX recomparison', () => {
  const table = (n: number): Table => ({
    id: 'quality',
    title: 'Quality',
    caption: 'c',
    columns: [col('judge', 'Judge', 'text'), col('n', 'n', 'int'), col('acc_ci', '95% CI', 'ci')],
    rows: [{ judge: 'J', n, acc_ci: [0.25, 0.75] }],
  });

  it('compares cell values, not the zip around them, and locates a changed cell', async () => {
    const bytes = new Uint8Array(await buildWorkbook([table(40)]).xlsx.writeBuffer());
    expect((await xlsxCheck('t.xlsx', bytes, [table(40)])).equal).toBe(true);
    expect((await xlsxCheck('t.xlsx', bytes, [table(41)])).differences).toEqual([
      { where: 'quality!B2', stored: '40', recomputed: '41' },
    ]);
    // A sheet missing from the stored workbook is named.
    const one = new ExcelJS.Workbook();
    one.addWorksheet('other').addRow(['x']);
    const missing = await xlsxCheck('t.xlsx', new Uint8Array(await one.xlsx.writeBuffer()), [table(40)]);
    expect(missing.differences[0]).toEqual({ where: 'sheets', stored: 'other', recomputed: 'quality' });
  });
});
