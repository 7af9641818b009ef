import type { ApiEvents } from '../../shared/api';
import type { KeyStore } from '../providers/config';
import type { Database } from '../store/db';
import type { RunnerDeps } from './runner';

export type Emit = <E extends keyof ApiEvents>(event: E, payload: ApiEvents[E]) => void;

/** What every part of the experiments service is given. */
export interface ServiceOptions {
  db: Database;
  dataDir: string;
  keys: KeyStore;
  emit: Emit;
  engine?: RunnerDeps['engine'];
}
