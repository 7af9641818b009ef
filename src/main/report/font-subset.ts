// A CJK font cut down to the characters one figure draws, for resvg. resvg-js keeps each font
// it is given as a file path and reads the whole file again every time it lays out or outlines
// a glyph: a 中文 figure read the 19.5 MB Noto Sans CJK collection hundreds of times (40 lines
// of mixed 中文/English: 3 CPU-s, against 0.23 s with the subset, the cut included). The subset is
// HarfBuzz's own subsetter (harfbuzzjs, WebAssembly) over the collection's first face, the face
// resvg's fallback took from the whole file, so the pixels are the same (tested).
import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';

interface HarfBuzz {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_set_clear(set: number): void;
  hb_set_invert(set: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_or_fail(face: number, input: number): number;
}

// harfbuzz's enums (hb-blob.h, hb-subset.h).
const HB_MEMORY_MODE_READONLY = 1;
const HB_SUBSET_SETS_LAYOUT_FEATURE_TAG = 6;

const requireHere = createRequire(import.meta.url);
let compiled: WebAssembly.Module | undefined;

/**
 * A fresh subsetter: the compiled module is kept (compiling is the cost), the instance and its
 * memory are not (WebAssembly memory never shrinks, and a collection holds the font while it cuts).
 * Synchronous, since the PNG worker draws synchronously; Node compiles a module this size at once.
 */
function hb(): HarfBuzz {
  compiled ??= new WebAssembly.Module(
    readFileSync(requireHere.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm')),
  );
  const exports = new WebAssembly.Instance(compiled, {}).exports as unknown as HarfBuzz & {
    _initialize(): void;
  };
  exports._initialize();
  return exports;
}

/**
 * The font file's face `index` with only the glyphs of these code points (and what its layout
 * tables reach from them: every layout feature kept), as an OpenType file's bytes. The file is read
 * straight into the subsetter's memory (a 19.5 MB collection is not held twice).
 */
export function subsetFace(file: string, index: number, codePoints: Iterable<number>): Buffer {
  const h = hb();
  const heap = () => new Uint8Array(h.memory.buffer); // a view per use: the memory may grow
  const input = h.hb_subset_input_create_or_fail();
  if (!input) throw new Error('harfbuzz: no subset input');
  const fd = openSync(file, 'r');
  let ptr = 0;
  let face = 0;
  try {
    const size = fstatSync(fd).size;
    ptr = h.malloc(size);
    if (!ptr) throw new Error(`harfbuzz: no memory for ${size} bytes`);
    for (let at = 0; at < size;) {
      const n = readSync(fd, heap(), ptr + at, size - at, at);
      if (n === 0) throw new Error(`${file}: shorter than its size`);
      at += n;
    }
    const blob = h.hb_blob_create(ptr, size, HB_MEMORY_MODE_READONLY, 0, 0);
    face = h.hb_face_create(blob, index);
    h.hb_blob_destroy(blob);
    const features = h.hb_subset_input_set(input, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
    h.hb_set_clear(features);
    h.hb_set_invert(features);
    const unicodes = h.hb_subset_input_unicode_set(input);
    for (const cp of codePoints) h.hb_set_add(unicodes, cp);
    const cut = h.hb_subset_or_fail(face, input);
    if (!cut) throw new Error(`harfbuzz could not subset face ${index} of ${file}`);
    const blobOut = h.hb_face_reference_blob(cut);
    const data = h.hb_blob_get_data(blobOut, 0);
    const bytes = Buffer.from(heap().slice(data, data + h.hb_blob_get_length(blobOut)));
    h.hb_blob_destroy(blobOut);
    h.hb_face_destroy(cut);
    return bytes;
  } finally {
    closeSync(fd);
    if (face) h.hb_face_destroy(face);
    h.hb_subset_input_destroy(input);
    if (ptr) h.free(ptr);
  }
}

// Subsets live in one folder per process (worker threads too: names are content hashes, written
// under a name of the thread's own and renamed), removed when the main thread exits: a figure's
// subset is ~15 KB and few repeat, so nothing is kept between runs. A worker that is terminated
// runs no exit handler of its own, so the main thread owns the removal.
const folder = join(tmpdir(), `judge-lab-fonts-${process.pid}`);
if (isMainThread) process.once('exit', () => rmSync(folder, { recursive: true, force: true }));

/**
 * A file holding `file`'s first face cut down to the characters of `text`; `file` itself when the
 * subset cannot be made (the figure is drawn as before, only slower).
 */
export function subsetFontFile(file: string, text: string): string {
  try {
    const codePoints = [...new Set([...text].map((c) => c.codePointAt(0)!))].sort((a, b) => a - b);
    const { size, mtimeMs } = statSync(file);
    const key = createHash('sha256')
      .update(JSON.stringify([file, size, mtimeMs, codePoints]))
      .digest('hex')
      .slice(0, 32);
    const out = join(folder, `${key}.otf`);
    try {
      statSync(out);
      return out;
    } catch {
      // not made yet
    }
    const bytes = subsetFace(file, 0, codePoints);
    mkdirSync(folder, { recursive: true });
    const part = `${out}.${threadId}.part`;
    writeFileSync(part, bytes);
    renameSync(part, out);
    return out;
  } catch {
    return file;
  }
}
