// The provider SDKs and the tokenizer load on first use, not when the core loads: together they
// were ~0.4 CPU-s and ~70 MB of every `judge-lab serve` start and of every CLI command that never
// calls a provider (issue 27). The first call of a run waits for its SDK once.
import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

type AnthropicModule = typeof import('@anthropic-ai/sdk');
type OpenAIModule = typeof import('openai');
type Tokenizer = typeof import('gpt-tokenizer');

let anthropic: Promise<AnthropicModule> | undefined;
let openai: Promise<OpenAIModule> | undefined;
let tokenizer: Tokenizer | undefined;

export function loadAnthropicSdk(): Promise<AnthropicModule> {
  return (anthropic ??= import('@anthropic-ai/sdk'));
}

export function loadOpenAISdk(): Promise<OpenAIModule> {
  return (openai ??= import('openai'));
}

/** Counting is synchronous (an estimate counts thousands of prompts in one pass), so the tokenizer is required, once. */
export function loadTokenizer(): Tokenizer {
  if (tokenizer) return tokenizer;
  const req = createRequire(import.meta.url);
  loads++;
  return (tokenizer = (leanTokenizer(req) as Tokenizer | undefined) ?? (req('gpt-tokenizer') as Tokenizer));
}

let loads = 0;

/**
 * The package's o200k tokenizer, its ranks read as JSON instead of compiled: the ranks file is two
 * array literals of ~100,000 strings on one line each, and V8's parser keeps ~15 MiB of its
 * working memory for them in the thread's malloc arena after the load, which the C library never
 * hands back (`[heap]` 29 → 15 MiB; also ~10 % less CPU). The same ranks (checked: the arrays are
 * the literals' values) given to the package's own `GptEncoding.getEncodingApi`, as its
 * `encoding/o200k_base.js` does, so counts are the package's. Undefined if the file is not laid out
 * as expected (another version): the caller then requires the package as it is. Self-contained,
 * with only `req`: the counting worker runs its source too (`COUNTER_SOURCE`).
 */
export function leanTokenizer(req: NodeJS.Require): { countTokens: Tokenizer['countTokens'] } | undefined {
  try {
    const { readFileSync } = req('node:fs') as typeof import('node:fs');
    const { dirname, join } = req('node:path') as typeof import('node:path');
    const dir = dirname(req.resolve('gpt-tokenizer'));
    // Read as bytes and parsed a line at a time: the file as one string (two bytes a character, it
    // has non-Latin-1 tokens) was 3.9 MiB of garbage while the tables were built, and a regular
    // expression run over it kept it alive after (V8 keeps the last match's input) — the counting
    // worker's peak 7 MiB and its size after its collection 3 MiB larger (issue 39).
    const file = readFileSync(join(dir, 'bpeRanks', 'o200k_base.js'));
    const ranks: unknown[] = [];
    let declared = 0;
    let joined = false;
    for (let at = 0; at < file.length;) {
      const next = file.indexOf(10, at);
      const end = next < 0 ? file.length : next;
      const head = file.toString('latin1', at, Math.min(end, at + 200));
      const declaration = /^const c\d+ = \[/.exec(head);
      if (declaration) {
        // `const cN = [...];`, the array on this one line.
        if (file[end - 1] !== 0x3b) return undefined;
        const literal = JSON.parse(
          file.toString('utf8', at + declaration[0].length - 1, end - 1),
        ) as unknown[];
        for (const rank of literal) ranks.push(rank);
        declared++;
      } else if (/^const bpe = c0(\.concat\(c\d+(, c\d+)*\))?;$/.test(head)) joined = true;
      else if (/^const c\d+ = /.test(head)) return undefined;
      at = end + 1;
    }
    if (declared === 0 || !joined) return undefined;
    const { GptEncoding } = req(join(dir, 'GptEncoding.js')) as {
      GptEncoding: {
        getEncodingApi(name: string, ranks: () => unknown[]): { countTokens: Tokenizer['countTokens'] };
      };
    };
    return GptEncoding.getEncodingApi('o200k_base', () => ranks);
  } catch {
    return undefined;
  }
}

// Only a process that runs one study and exits (`judge-lab run`) lets the tables go after an
// estimate: a process that runs many (the app, the validation) reloaded and recounted them at every
// run when all did (issue 39: the e2e validation cells 63 s -> 266 s).
let releaseAfterEstimates = false;

/**
 * Asked by `judge-lab run`: its estimates count in a worker thread that ends after each (below),
 * and tables loaded here all the same (a lane's TPM budget) go after each estimate (issue 39).
 * The first worker starts now and loads the tables while the run opens its store and plans.
 */
export function releaseTokenizerAfterEstimates(): void {
  releaseAfterEstimates = true;
  ready ??= startCounter();
}

// ES2024's Atomics.waitAsync (in V8 since 8.7, so in every Node this app runs on), typed here: the
// project's TypeScript library stops at ES2023.
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeout: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync.bind(Atomics);

/** How long `countingTablesBuilt` waits at most: a loaded machine builds the tables in seconds. */
const BUILT_TIMEOUT_MS = 30_000;

/**
 * Resolves when the counting worker started ahead has built its tables, could not, or ended (at
 * once without one; after BUILT_TIMEOUT_MS at most). `judge-lab run`'s launcher waits for it before
 * the CLI loads: the worker's build, ~60 MiB for a moment before its collection, then never meets
 * the loading core (issue 39: the position study's start, 136–148 MiB by how the two overlapped).
 */
export function countingTablesBuilt(): Promise<void> {
  const counter = ready;
  if (!counter) return Promise.resolve();
  const waited = waitAsync(counter.flag, 1, 0, BUILT_TIMEOUT_MS);
  if (!waited.async) return Promise.resolve();
  return new Promise<void>((done) => {
    const finish = () => {
      clearTimeout(timer);
      counter.worker.off('exit', finish);
      done();
    };
    // A timer, not only the wait: the worker is unref'd, and a pending waitAsync alone would let the
    // process exit with the launcher's await unsettled.
    const timer = setTimeout(finish, BUILT_TIMEOUT_MS);
    counter.worker.once('exit', finish);
    void waited.value.then(finish);
  });
}

/** Whether the worker started ahead says its tables are built (tests of the wait above). */
export function countingTablesReady(): boolean {
  return ready !== undefined && Atomics.load(ready.flag, 1) === 1;
}

/**
 * Undoes `releaseTokenizerAfterEstimates` (a worker started ahead is ended): for test files, which
 * share their process with the files after them (vitest's node project does not isolate them).
 */
export function keepTokenizerBetweenEstimates(): void {
  releaseAfterEstimates = false;
  if (!ready) return;
  ready.port.close();
  void ready.worker.terminate();
  ready = undefined;
}

/**
 * An estimate is done. In a one-study process the tables go (the counts stay in tokens.ts, so a
 * later estimate of the same plan needs no tokenizer; a text not counted yet loads it again).
 * Module-cache entries go too, or `require` would keep them.
 */
export function estimateDone(): void {
  if (!releaseAfterEstimates || !tokenizer) return;
  tokenizer = undefined;
  const req = createRequire(import.meta.url);
  for (const id of Object.keys(req.cache))
    if (/[\\/]node_modules[\\/]gpt-tokenizer[\\/]/.test(id)) delete req.cache[id];
}

/** Whether this process runs one study (`judge-lab run`): an estimate then counts in a worker (below). */
export function countsApart(): boolean {
  return releaseAfterEstimates;
}

/** How long an estimate waits for the counting worker before it counts here instead. */
const APART_TIMEOUT_MS = 120_000;

// The worker: loads the tables as it starts, counts the texts it is sent (as tokens.ts counts a
// text: special tokens' spellings as text), answers on its port, wakes the waiting thread, and is
// ended.
const COUNTER_SOURCE = `
const { workerData: { from, port, flag } } = require('node:worker_threads');
let countTokens, failed;
try {
  const req = require('node:module').createRequire(from);
  const api = (${leanTokenizer.toString()})(req) ?? req('gpt-tokenizer');
  // Each word comes once (tokens.ts remembers counts): the merge cache would only grow, ~2.5 MiB
  // over the position study's ~18,000 words (issue 39: its estimate).
  api.setMergeCacheSize?.(0);
  ({ countTokens } = api);
} catch (err) {
  failed = err;
}
// Building the tables leaves about as much garbage as they hold (the rank map's earlier, smaller
// copies; the parsed literals), and this thread would keep it while the run plans beside it: a
// full collection now, compacting, so the pages the garbage held go back (V8's --expose-gc stays
// on, as heap.ts's collectGarbage leaves it; compaction is switched on for this one collection).
try {
  const v8 = require('node:v8');
  v8.setFlagsFromString('--expose-gc');
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    require('node:vm').runInNewContext('gc')();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
} catch {}
// Built (or failed): whoever waits for the tables before loading more goes on.
Atomics.store(flag, 1, 1);
Atomics.notify(flag, 1);
port.once('message', (texts) => {
  let reply;
  try {
    if (failed) throw failed;
    const asText = { disallowedSpecial: new Set() };
    const counts = new Int32Array(texts.length);
    for (let i = 0; i < texts.length; i++) counts[i] = countTokens(texts[i], asText);
    reply = { counts };
  } catch (err) {
    reply = { error: String(err) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

/**
 * Token counts of `texts` from a worker thread that loads the tables, counts and ends, so they
 * never enter this thread's heap: loaded here, the tables and their load's garbage (~58 MiB of
 * heap at the estimate) made the one-shot run's estimate its peak, and V8 kept most of the freed
 * pages for the rest of the run and the export (issue 39). An isolate's heap is unmapped when its
 * thread ends. Synchronous like the counting it replaces (an estimate is one synchronous pass):
 * this thread sleeps on a shared flag until the worker answers. Undefined when the worker cannot
 * count (the caller then counts here).
 */
export function countInWorker(texts: string[]): Int32Array | undefined {
  if (texts.length === 0) return new Int32Array(0);
  const counter = ready ?? startCounter();
  ready = undefined;
  if (!counter) return undefined;
  const { worker, port, flag } = counter;
  try {
    port.postMessage(texts);
    if (Atomics.wait(flag, 0, 0, APART_TIMEOUT_MS) === 'timed-out') return undefined;
    const reply = receiveMessageOnPort(port)?.message as { counts?: Int32Array } | undefined;
    return reply?.counts?.length === texts.length ? reply.counts : undefined;
  } finally {
    port.close();
    void worker.terminate();
  }
}

interface Counter {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
}

/** The counting worker's young generation (both semi-spaces), in MiB. */
const COUNTER_YOUNG_MIB = 3;

/** A counting worker started ahead (by `releaseTokenizerAfterEstimates`), used by the next estimate. */
let ready: Counter | undefined;

function startCounter(): Counter | undefined {
  // [0]: an answer is waiting on the port; [1]: the tables are built (or could not be).
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  try {
    const worker = new Worker(COUNTER_SOURCE, {
      eval: true,
      // Packages are found from this module, not from the worker's working directory.
      workerData: { from: import.meta.url, port: port2, flag },
      transferList: [port2],
      // The tables are long-lived: a young generation the size of this process's (2 × 8 MiB, the
      // launcher's) only held their garbage longer, beside the run's start (issue 39).
      resourceLimits: { maxYoungGenerationSizeMb: COUNTER_YOUNG_MIB },
    });
    // A worker waiting for an estimate that never comes (a run that fails first) keeps no process alive.
    worker.unref();
    port1.unref();
    return { worker, port: port1, flag };
  } catch {
    return undefined;
  }
}

/** How many times this thread loaded the tables (tests: a one-study run's estimate loads none here). */
export function tokenizerLoads(): number {
  return loads;
}

/** Whether the tokenizer's tables are loaded (tests of the release above). */
export function tokenizerLoaded(): boolean {
  return tokenizer !== undefined;
}

/**
 * A successful call's body as the SDKs' own parse step reads it (non-streamed): JSON when the
 * content type says so, else the text; null for 204 and undefined for an empty JSON body.
 */
export async function jsonBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const mediaType = res.headers.get('content-type')?.split(';')[0]?.trim();
  if (!mediaType?.includes('application/json') && !mediaType?.endsWith('+json')) return res.text();
  if (res.headers.get('content-length') === '0') return undefined;
  return res.json();
}
