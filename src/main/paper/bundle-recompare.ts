// What `verify` recompares beyond text (issue 24): the workbook by the values of its cells, sheet
// by sheet (the zip around them holds times, so bytes would never match), and a figure's PNG by
// its decoded pixels. Pixels are read with resvg, the library that drew them: the PNG is placed
// 1:1 as the only image of an SVG whose render is its RGBA (exact: the figures are drawn on an
// opaque white background, so no alpha is premultiplied and back). Knows no protocol.
import { Resvg } from '@resvg/resvg-js';
import { DIFFERENCES_LISTED, type BundleCheck } from '../../shared/paper/bundle';
import type { Table } from '../../shared/report/table';
import { INPUT_LIMITS } from '../base/input-limits';
import { readZip, ZipProblem } from '../base/zip-read';
import { svgToPng } from '../report/figures';
import { buildWorkbook, excelJs } from '../report/xlsx';

type SheetValues = Map<string, Map<string, string>>;

/** Every sheet's cells (address → value as JSON), in the order the workbook lists them. */
async function cellValues(bytes: Uint8Array): Promise<SheetValues> {
  const workbook = new (excelJs().Workbook)();
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  const out: SheetValues = new Map();
  for (const sheet of workbook.worksheets) {
    const cells = new Map<string, string>();
    sheet.eachRow({ includeEmpty: false }, (row) =>
      row.eachCell({ includeEmpty: false }, (cell) => {
        cells.set(cell.address, JSON.stringify(cell.value));
      }),
    );
    out.set(sheet.name, cells);
  }
  return out;
}

/** The stored workbook against one made from the recomputed tables, cell by cell. */
export async function xlsxCheck(
  file: string,
  stored: Uint8Array,
  tables: readonly Table[],
): Promise<BundleCheck> {
  // The workbook library unpacks a zip with no limit: the stored one (someone else's) is read
  // within limits first, and one that is not within them is not recompared (its error says why).
  try {
    readZip(stored, INPUT_LIMITS.bundleWorkbook);
  } catch (err) {
    if (err instanceof ZipProblem && err.entry !== undefined)
      throw new Error(`${err.entry}: ${err.message}`, { cause: err });
    throw err;
  }
  const fresh = new Uint8Array(await buildWorkbook(tables).xlsx.writeBuffer());
  const [a, b] = await Promise.all([cellValues(stored), cellValues(fresh)]);
  const differences: BundleCheck['differences'] = [];
  const push = (where: string, s: string | undefined, r: string | undefined) => {
    if (differences.length < DIFFERENCES_LISTED)
      differences.push({ where, stored: s ?? 'absent', recomputed: r ?? 'absent' });
  };
  const sheetsA = [...a.keys()];
  const sheetsB = [...b.keys()];
  if (sheetsA.join('\u0000') !== sheetsB.join('\u0000'))
    push('sheets', sheetsA.join(', '), sheetsB.join(', '));
  for (const name of new Set([...sheetsA, ...sheetsB])) {
    const ca = a.get(name) ?? new Map<string, string>();
    const cb = b.get(name) ?? new Map<string, string>();
    for (const address of new Set([...ca.keys(), ...cb.keys()]))
      if (ca.get(address) !== cb.get(address)) push(`${name}!${address}`, ca.get(address), cb.get(address));
  }
  return { file, equal: differences.length === 0, differences };
}

/** A PNG's size from its header (IHDR is always the first chunk). */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (view.length < 24 || view.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

/** RGBA of a PNG, decoded by resvg. */
function pixelsOf(png: Uint8Array): { width: number; height: number; pixels: Buffer } {
  const { width, height } = pngSize(png);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<image width="${width}" height="${height}" image-rendering="optimizeSpeed" ` +
    `href="data:image/png;base64,${Buffer.from(png).toString('base64')}"/></svg>`;
  const image = new Resvg(svg, { font: { loadSystemFonts: false }, logLevel: 'off' }).render();
  return { width: image.width, height: image.height, pixels: Buffer.from(image.pixels) };
}

/**
 * The stored PNG against one drawn again from the recomputed SVG, as the export draws it: equal
 * when the bytes are, else when the decoded pixels are; different with the count of pixels that
 * differ. Drawing depends on the fonts of this machine: a figure with text drawn in another face
 * differs here even when its SVG (compared byte for byte) is the same.
 */
export async function pngCheck(
  file: string,
  stored: Uint8Array,
  svg: string,
  width: number,
): Promise<BundleCheck> {
  const fresh = await svgToPng(svg, width);
  if (Buffer.compare(Buffer.from(stored), fresh) === 0) return { file, equal: true, differences: [] };
  // Sizes from the headers before any decoding: a stored PNG that claims a huge canvas is
  // different without being drawn (decoding it would take width × height × 4 bytes).
  const sa = pngSize(stored);
  const sb = pngSize(fresh);
  if (sa.width !== sb.width || sa.height !== sb.height)
    return {
      file,
      equal: false,
      differences: [
        { where: 'size', stored: `${sa.width}×${sa.height}`, recomputed: `${sb.width}×${sb.height}` },
      ],
    };
  const a = pixelsOf(stored);
  const b = pixelsOf(fresh);
  let differing = 0;
  for (let i = 0; i < a.pixels.length; i += 4)
    if (a.pixels.readUInt32BE(i) !== b.pixels.readUInt32BE(i)) differing++;
  return differing === 0
    ? { file, equal: true, differences: [] }
    : {
        file,
        equal: false,
        differences: [
          {
            where: 'pixels',
            stored: `${a.width}×${a.height}`,
            recomputed: `${differing} of ${a.width * a.height} pixels differ`,
          },
        ],
      };
}
