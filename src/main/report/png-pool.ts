// PNGs drawn in worker threads (issue 27). resvg's renderAsync draws on libuv's pool but encodes
// the PNG on the calling thread, and an export's main thread is busy with ECharts and the
// workbook: in workers, the figures are drawn and encoded while the workbook is built. Same
// renderer, same options, the same bytes (png.ts). Only under plain Node with the built worker
// (out/main/png-worker.js): the Electron app and runs from source draw with svgToPng in process.
import { Worker } from 'node:worker_threads';
import { builtFile } from './built-file';
import { svgToPng } from './png';
import type { PngJob, PngReply } from './png-worker';

/** Idle workers end after this long (a long `serve` does not keep them). */
const IDLE_MS = 30_000;

interface Job extends PngJob {
  resolve: (png: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
  ended: boolean;
}

/** The built worker beside this module's chunk, or none (source runs, Electron). */
function workerFile(): string | null {
  if (process.versions.electron) return null;
  return builtFile('png-worker.js');
}

class PngPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    size: number,
    private readonly onEnd: () => void,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.file), jobs: new Map(), ended: false };
    // Held only while it has work: an idle worker never keeps the process from exiting.
    slot.worker.unref();
    slot.worker.on('message', (reply: PngReply) => this.settle(slot, reply));
    // A worker that dies (it should not) costs no figure: its jobs are drawn here instead.
    const lost = () => {
      if (slot.ended) return;
      slot.ended = true;
      this.slots.splice(this.slots.indexOf(slot), 1);
      for (const job of slot.jobs.values()) svgToPng(job.svg, job.width).then(job.resolve, job.reject);
      slot.jobs.clear();
    };
    slot.worker.on('error', lost);
    slot.worker.on('exit', lost);
    return slot;
  }

  render(svg: string, width: number): Promise<Buffer> {
    clearTimeout(this.idle);
    const slot = this.slots.reduce<Slot | undefined>(
      (best, s) => (!best || s.jobs.size < best.jobs.size ? s : best),
      undefined,
    );
    if (!slot) return svgToPng(svg, width);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      if (slot.jobs.size === 0) slot.worker.ref();
      slot.jobs.set(id, { id, svg, width, resolve, reject });
      slot.worker.postMessage({ id, svg, width } satisfies PngJob);
    });
  }

  private settle(slot: Slot, reply: PngReply): void {
    const job = slot.jobs.get(reply.id);
    if (!job) return;
    slot.jobs.delete(reply.id);
    if (slot.jobs.size === 0) slot.worker.unref();
    if ('error' in reply) job.reject(new Error(reply.error));
    else job.resolve(Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength));
    if (this.slots.every((s) => s.jobs.size === 0)) {
      this.idle = setTimeout(() => this.end(), IDLE_MS);
      this.idle.unref();
    }
  }

  end(): void {
    clearTimeout(this.idle);
    for (const slot of [...this.slots]) {
      slot.ended = true;
      void slot.worker.terminate();
    }
    this.slots.length = 0;
    this.onEnd();
  }
}

let pool: PngPool | null | undefined;

/** The workers, started on first use (or ahead of an export: preload.ts); null where there are none. */
export function pngPool(): PngPool | null {
  if (pool !== undefined) return pool;
  const file = workerFile();
  // One worker (issue 27): a second cost ~45 MiB more at the export's peak (its own V8 heap and
  // resvg, and a second figure's pixmap drawn at once) and saved no time in the study's export,
  // where the PNGs drawn one after another still end about when the main thread's SVGs and
  // workbook do (bench:overhead study: 412 vs 458 MiB, last answer → exit 2.25 vs 2.43 s).
  const size = 1;
  pool = file
    ? new PngPool(file, size, () => {
        pool = undefined;
      })
    : null;
  return pool;
}

/** svgToPng, drawn by a worker where there are workers. */
export function renderPng(svg: string, width: number): Promise<Buffer> {
  return pngPool()?.render(svg, width) ?? svgToPng(svg, width);
}

/**
 * The most figures `judge-lab run` draws on its own thread (drawFewPngsOnThisThread). An idle
 * worker with resvg costs ~11 MiB, and resvg drawing on another thread (the worker, or
 * renderAsync's libuv pool) takes its memory from a malloc arena of its own, while on the main
 * thread it reuses what the run freed: the position study's export (one figure) peaked ~7 MiB
 * lower (issue 39). Exports with more figures (a language-invariance study draws eight) keep the worker.
 */
export const PNG_ON_THREAD_MAX_FIGURES = 2;

let onThreadUpTo = 0;

/** For a process that runs one study and exits: an export with few figures draws them itself. */
export function drawFewPngsOnThisThread(): void {
  onThreadUpTo = PNG_ON_THREAD_MAX_FIGURES;
}

/** Whether an export of `figures` figures draws them on this thread (svgToPngSync). */
export function pngsOnThisThread(figures: number): boolean {
  return figures <= onThreadUpTo;
}
