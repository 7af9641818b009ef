// An export's libraries loaded ahead of it (issue 27): `judge-lab run` calls this while its
// calls are in flight, so the PNG workers, ECharts (loaded and warmed up: warm-up.ts) and
// exceljs are ready when the last answer comes, and the export after it only computes and
// writes. One step per turn of the event loop: answers that arrive meanwhile are recorded
// between the steps.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { loadECharts } from './figures';
import { pngPool } from './png-pool';
import { WARM_UP_FIGURES, warmUpFigure } from './warm-up';
import { excelJs } from './xlsx';

export async function preloadExport(): Promise<void> {
  const steps = [pngPool, loadECharts, excelJs, ...WARM_UP_FIGURES.map((_, i) => () => warmUpFigure(i))];
  for (const step of steps) {
    await nextTurn();
    step();
  }
}
