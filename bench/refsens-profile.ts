// Where the results API's time goes on a stored run: `node bench/run.mjs refsens-profile <data dir>`
// (the folder bench:refsens prints). Times each phase of computeResults: wall and this process's
// CPU (the CPU is the figure to quote on a shared machine).
import { join } from 'node:path';
import '../src/main/protocols';
import { openDatabase } from '../src/main/store/db';
import { loadExperiment } from '../src/main/experiments/load';
import {
  metricsContext,
  reportTables,
  resultCounts,
  computeResults,
  computeResultsUncached,
} from '../src/main/experiments/results';
import { listResults } from '../src/main/store/results';
import { usageRows } from '../src/main/experiments/results';
import { storeAnswers } from '../src/main/experiments/stages';

const dir = process.argv[2];

const db = openDatabase(join(dir, 'judge-lab.sqlite'));
const time = <T>(label: string, f: () => T): T => {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const r = f();
  const used = process.cpuUsage(cpu);
  console.log(
    `${label}: ${(performance.now() - t).toFixed(0)} ms wall, ${((used.user + used.system) / 1e3).toFixed(0)} ms CPU`,
  );
  return r;
};
for (let round = 0; round < 2; round++) {
  const exp = time('load', () => loadExperiment(db, 1));
  time('storeAnswers', () => storeAnswers(db, exp));
  time('flagged', () => exp.protocol.flagged?.(exp.view, db));
  time('listResults', () => listResults(db, 1));
  time('usageRows', () => usageRows(db, exp));
  const ctx = time('metricsContext', () => metricsContext(db, exp, false));
  const m = time('computeMetrics', () => exp.protocol.computeMetrics(ctx));
  time('tables', () => reportTables(exp, m, null));
  time('counts', () => resultCounts(db, 1));
  time('computeResultsUncached', () => computeResultsUncached(db, 1));
  time('computeResults (cache filled or hit)', () => computeResults(db, 1));
  time('computeResults (hit)', () => computeResults(db, 1));
}
