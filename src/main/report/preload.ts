// An export's libraries loaded ahead of it (issue 27): `judge-lab run` calls this while its
// calls are in flight, so ECharts (loaded and warmed up: warm-up.ts) and exceljs are ready when
// the last answer comes, and the export after it only computes and writes. One step per turn of
// the event loop: answers that arrive meanwhile are recorded between the steps. Not the PNG
// workers: idle through a whole run they would only hold memory, and started with the export
// they are up (in their own threads) by the time the first SVG is drawn.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { loadECharts } from './figures';
import { WARM_UP_FIGURES, warmUpFigure } from './warm-up';
import { excelJs } from './xlsx';

export async function preloadExport(): Promise<void> {
  const steps = [loadECharts, excelJs, ...WARM_UP_FIGURES.map((_, i) => () => warmUpFigure(i))];
  for (const step of steps) {
    await nextTurn();
    step();
  }
}
