// Which process runs which experiment. The desktop app, `judge-lab serve` and the CLI may
// open one store together; only the process that runs an experiment may touch its calls
// "in flight", and a crash must not leave an experiment looking busy forever.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive as alive } from '../store/leases';
import { AppError } from './errors';

export class RunLocks {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'locks');
    mkdirSync(this.dir, { recursive: true });
  }

  private file(experimentId: number): string {
    return join(this.dir, `experiment-${experimentId}.pid`);
  }

  private holder(experimentId: number): number | undefined {
    try {
      const pid = Number(readFileSync(this.file(experimentId), 'utf8').trim());
      return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** Takes the experiment for this process; refuses when another live process has it. */
  acquire(experimentId: number): void {
    const file = this.file(experimentId);
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = this.holder(experimentId);
    if (pid !== undefined && pid !== process.pid) {
      throw new AppError(
        'conflict',
        `This experiment is running in another process (pid ${pid}). Wait for it, or stop it, then try again.`,
      );
    }
    // Left behind by a process that died: take it over.
    writeFileSync(file, String(process.pid));
  }

  release(experimentId: number): void {
    if (this.holder(experimentId) === process.pid) rmSync(this.file(experimentId), { force: true });
  }

  /** Experiments that another live process is running now. */
  heldElsewhere(): number[] {
    const ids: number[] = [];
    for (const name of readdirSync(this.dir)) {
      const m = /^experiment-(\d+)\.pid$/.exec(name);
      if (!m) continue;
      const id = Number(m[1]);
      const pid = this.holder(id);
      if (pid === undefined) rmSync(join(this.dir, name), { force: true });
      else if (pid !== process.pid) ids.push(id);
    }
    return ids;
  }
}

/**
 * Every experiment a live process (this one included) is running on a data folder, read from
 * its lock files without taking any: what a restore must not pull the store from under.
 */
export function liveRuns(dataDir: string): { experimentId: number; pid: number }[] {
  const dir = join(dataDir, 'locks');
  if (!existsSync(dir)) return [];
  const runs: { experimentId: number; pid: number }[] = [];
  for (const name of readdirSync(dir)) {
    const m = /^experiment-(\d+)\.pid$/.exec(name);
    if (!m) continue;
    let pid: number;
    try {
      pid = Number(readFileSync(join(dir, name), 'utf8').trim());
    } catch {
      continue; // released while we looked
    }
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) runs.push({ experimentId: Number(m[1]), pid });
  }
  return runs.sort((a, b) => a.experimentId - b.experimentId);
}
