// Child process of the crash-recovery test: opens the ledger file, recovers what a previous
// (killed) process left in flight, and runs the jobs. Args: <db file> <mock url> <jobs json>
// [<file>: the store's transactions fail (SQLITE_FULL) for good once that file exists].
import { existsSync, readFileSync } from 'node:fs';
import { RequestEngine } from '../../src/main/queue/engine';
import { openDatabase } from '../../src/main/store/db';
import { recoverInFlight } from '../../src/main/store/ledger';
import { faultState, faultyDatabase } from './store-faults';

const [dbFile, url, jobsFile, failFlag] = process.argv.slice(2);
const real = openDatabase(dbFile);
const db =
  failFlag === undefined ? real : faultyDatabase(real, faultState({ failIf: () => existsSync(failFlag) }));
const recovered = recoverInFlight(db).length;
const engine = new RequestEngine({
  db,
  providers: { mock: { kind: 'openai', baseURL: `${url}/v1`, concurrency: 8, timeoutMs: 5000 } },
  keys: { get: () => 'sk-test-child' },
});
const jobs = JSON.parse(readFileSync(jobsFile, 'utf8')) as { requestId: number; group: string }[];
const summary = await engine.run(jobs);
db.close();
process.stdout.write(
  JSON.stringify({
    recovered,
    outcome: summary.outcome,
    done: summary.overall.done,
    cacheHits: summary.overall.cacheHits,
  }),
);
