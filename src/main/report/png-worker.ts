// A PNG worker (png-pool.ts): resvg renders and encodes on this thread, so the export's main
// thread goes on with the workbook meanwhile. Its own build entry (out/main/png-worker.js).
import { parentPort } from 'node:worker_threads';
import { svgToPngSync } from './png';

export interface PngJob {
  id: number;
  svg: string;
  width: number;
}

export type PngReply = { id: number; png: Uint8Array } | { id: number; error: string };

parentPort?.on('message', ({ id, svg, width }: PngJob) => {
  let reply: PngReply;
  try {
    reply = { id, png: svgToPngSync(svg, width) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
