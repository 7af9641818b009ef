// A PNG worker (png-pool.ts): resvg renders and encodes on this thread, so the export's main
// thread goes on with the workbook meanwhile. Its own build entry (out/main/png-worker.js).
import { parentPort } from 'node:worker_threads';
import { collectGarbage } from '../base/heap';
import { svgToPngSync } from './png';

export interface PngJob {
  id: number;
  svg: string;
  width: number;
}

export type PngReply = { id: number; png: Uint8Array } | { id: number; error: string };

// resvg's tree and pixmap (10–20 MB a figure at 300 dpi) are native memory freed only when V8
// collects their small JS wrappers, and V8 does not count them: this thread's heap hardly grows,
// so without a collection every figure drawn here stayed in memory until the worker ended
// (~100 MB for a study's eight figures). So after each figure this thread's few-MB heap is
// collected (about a millisecond), and the next figure waits a turn: Node runs the wrappers'
// finalizers (which free the native memory) from the immediate queue, ahead of the next job's
// turn. A figure's native memory is thus gone before the next one is drawn.

const queue: PngJob[] = [];

function drawNext(): void {
  const job = queue.shift();
  if (!job) return;
  let reply: PngReply;
  try {
    reply = { id: job.id, png: svgToPngSync(job.svg, job.width) };
  } catch (err) {
    reply = { id: job.id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
  collectGarbage();
  if (queue.length > 0) setImmediate(drawNext);
}

parentPort?.on('message', (job: PngJob) => {
  queue.push(job);
  if (queue.length === 1) setImmediate(drawNext);
});
