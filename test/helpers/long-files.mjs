// Writes test/helpers/long-files.json from vitest's duration cache of a whole run
// (node_modules/.vite/vitest/<hash>/results.json, written by `npm test`): the files that took at least
// MIN_SECONDS, keyed as the sequencer keys them (`project:path`), so CI, which has no cache, starts
// them first too. Run after a full run on a 2-core machine: `node test/helpers/long-files.mjs`.
import console from 'node:console';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MIN_SECONDS = 3;
const cacheDir = 'node_modules/.vite/vitest';
const [hash] = readdirSync(cacheDir);
const { results } = JSON.parse(readFileSync(join(cacheDir, hash, 'results.json'), 'utf8'));
const seconds = Object.fromEntries(
  results
    // Only files of the repository: a scratch file run once is not in the checkout.
    .filter(([key, r]) => r.duration >= MIN_SECONDS * 1000 && existsSync(key.slice(key.indexOf(':') + 1)))
    .sort(([a, r], [b, s]) => s.duration - r.duration || (a < b ? -1 : 1))
    .map(([key, r]) => [key, Math.round(r.duration / 100) / 10]),
);
writeFileSync('test/helpers/long-files.json', `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`${Object.keys(seconds).length} files of at least ${MIN_SECONDS} s`);
