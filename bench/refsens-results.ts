// The first results call on a stored reference-sensitivity study, in a process of its own:
// `node bench/run.mjs refsens-results <data dir>` (the folder bench:refsens prints, its `data`).
// Opens the store as the app does and asks `experiments.results` once (the first call, nothing
// cached), then again (nothing changed). Prints wall, CPU-s and RSS of each. The store is
// opened in place: copy it first to keep one untouched.
import { useLaptopHeap } from '../src/main/base/heap';
import { Core } from '../src/main/facade/core';
import { EnvOnlyKeyStore } from '../src/main/providers/key-store';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bench/run.mjs refsens-results <data dir>');
  process.exit(2);
}
useLaptopHeap();
const core = new Core({ dataDir: dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
const id = Number(process.env.REFSENS_EXPERIMENT ?? 1);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
for (const name of ['first results call', 'second (nothing changed)']) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const r = await core.call('experiments.results', { experimentId: id });
  const used = process.cpuUsage(cpu);
  console.log(
    `${name.padEnd(26)} wall ${((performance.now() - t) / 1000).toFixed(3)} s  CPU ${((used.user + used.system) / 1e6).toFixed(3)} s  RSS ${mib(process.memoryUsage().rss)}  (${r.counts.ok} ok)`,
  );
}
await core.shutdown();
const all = process.resourceUsage();
console.log(
  `whole process: ${((all.userCPUTime + all.systemCPUTime) / 1e6).toFixed(2)} CPU-s, peak RSS ${mib(all.maxRSS * 1024)}`,
);
