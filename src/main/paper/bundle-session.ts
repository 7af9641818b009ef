// A study bundle opened in the app (issue 38 §8): verified and replayed like `bundle verify`, but
// its scratch store stays open so the pages a reviewer expects (figures, flips, variants) read it
// through the same views as the results page. One bundle at a time per core: opening another,
// closing it, or shutting the core down removes the scratch folder. The user's store is never
// read: every read names a method of BUNDLE_READS and runs on the replay's own database.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_READS, type BundleRead, type OpenedBundleReport } from '../../shared/paper/bundle';
import { API_METHODS } from '../../shared/api/methods';
import { AppError } from '../base/errors';
import { markSimulatedTable } from '../../shared/report/simulated';
import { getItem, listItems } from '../store/datasets';
import { openHandedBundle } from './bundle-read';
import { replayBundle, type ReplayedBundle } from './bundle-verify';

/** The folder prefix of an opened bundle's replay: its process id, so a later core can tell a dead one's. */
const PREFIX = '.bundle-open-';

interface Session {
  id: string;
  dir: string;
  replay: ReplayedBundle;
  datasetId: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class BundleSessions {
  private current: Session | null = null;
  /** Opens run one after another: a second bundle waits for the first's replay to settle. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataDir: string) {}

  open(fileName: string, bytes: Uint8Array): Promise<OpenedBundleReport> {
    const run = this.queue.then(() => this.openNow(fileName, bytes));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async openNow(fileName: string, bytes: Uint8Array): Promise<OpenedBundleReport> {
    // Checked whole before anything else. The open bundle is closed only once this one has
    // replayed: a bundle refused, before or by its replay, leaves it as it was.
    const bundle = openHandedBundle(fileName, bytes);
    const root = join(this.dataDir, 'exports');
    await mkdir(root, { recursive: true });
    await this.removeOrphans(root);
    const dir = await mkdtemp(join(root, `${PREFIX}${process.pid}-`));
    let replay: ReplayedBundle;
    try {
      replay = await replayBundle(bundle, dir);
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    const detail = replay.service.catalogue.get(replay.experimentId);
    const session: Session = { id: randomUUID(), dir, replay, datasetId: detail.datasetId };
    await this.close();
    this.current = session;
    return { ...replay.report, session: session.id };
  }

  /** One of BUNDLE_READS on the opened bundle's replay; its experiment and dataset are the replay's. */
  read(sessionId: string, method: string, raw: unknown): unknown {
    const s = this.current;
    if (!s || s.id !== sessionId)
      throw new AppError('not_found', 'This bundle is no longer open here: open it again.');
    if (!(BUNDLE_READS as readonly string[]).includes(method))
      throw new AppError(
        'invalid_params',
        `method: an opened bundle answers only ${BUNDLE_READS.join(', ')}`,
      );
    const m = method as BundleRead;
    // The page's own ids are not the replay's: the experiment and dataset are always this bundle's.
    const base = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const scoped = m.startsWith('experiments.')
      ? { ...base, experimentId: s.replay.experimentId }
      : m === 'items.list'
        ? { ...base, datasetId: s.datasetId }
        : base;
    // Checked by the method's own parameter schema, as a call of the method is.
    const parsed = API_METHODS[m].params.safeParse(scoped);
    if (!parsed.success)
      throw new AppError('invalid_params', `params: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    // Each case reads its own method's fields, which the schema above let through.
    const p = parsed.data as unknown as Record<string, never>;
    const { db, service, experimentId } = s.replay;
    switch (m) {
      case 'experiments.results': {
        // The replay answers from recorded files; the bundle says whether the study was simulated.
        const r = service.views.results(experimentId, p.excludeFlagged);
        const simulated = s.replay.report.simulated;
        return simulated && !r.simulated ? { ...r, simulated, tables: r.tables.map(markSimulatedTable) } : r;
      }
      case 'experiments.protocolView':
        return service.views.protocolView(experimentId, p.view, p.query ?? {});
      case 'experiments.flagged':
        return service.views.flagged(experimentId);
      case 'experiments.get':
        return service.catalogue.get(experimentId);
      case 'experiments.verdicts':
        return service.views.verdicts(experimentId, p.excludeFlagged ?? false);
      case 'experiments.verdictLinks':
        return service.views.verdictLinks(experimentId);
      case 'items.get': {
        const item = getItem(db, p.itemId);
        if (!item || item.datasetId !== s.datasetId)
          throw new AppError('not_found', `No item with id ${p.itemId} in this bundle`);
        return item;
      }
      case 'items.list':
        return listItems(db, s.datasetId, { subset: p.subset, search: p.search });
    }
  }

  async close(sessionId?: string): Promise<{ closed: boolean }> {
    const s = this.current;
    if (!s || (sessionId !== undefined && s.id !== sessionId)) return { closed: false };
    this.current = null;
    try {
      await s.replay.close();
    } finally {
      await rm(s.dir, { recursive: true, force: true });
    }
    return { closed: true };
  }

  /** Replays a process that ended without closing its bundle left behind (never a live one's). */
  private async removeOrphans(root: string): Promise<void> {
    for (const name of await readdir(root)) {
      const m = name.startsWith(PREFIX) ? /^(\d+)-/.exec(name.slice(PREFIX.length)) : null;
      if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue;
      await rm(join(root, name), { recursive: true, force: true });
    }
  }
}
