// The CLI's progress line on stderr: redrawn in place on a terminal, a line every few
// seconds when stderr is a file or a pipe (CI logs).
import type { CostEstimate, ExperimentProgress } from '../../shared/experiments';
import { groupedInt } from '../../shared/report/format';
import { splitFailures } from '../facade/cli-kit';

const BAR_WIDTH = 24;

/** Answered calls as █, failed ones as ✗: a bar full of failures must not read as done. */
function bar(done: number, failed: number, total: number): string {
  const cells = (n: number) => (total ? Math.round((n / total) * BAR_WIDTH) : 0);
  const answered = Math.min(BAR_WIDTH, cells(done));
  // At least one cell once anything failed, so a failure is never rounded away.
  const bad = Math.min(BAR_WIDTH - answered, failed > 0 ? Math.max(1, cells(failed)) : 0);
  return '█'.repeat(answered) + '✗'.repeat(bad) + '░'.repeat(BAR_WIDTH - answered - bad);
}

function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '–';
  if (seconds < 90) return `${Math.round(seconds)}s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)}m`;
  return `${(seconds / 3600).toFixed(1)}h`;
}

export function progressLine(p: ExperimentProgress): string {
  const phase = p.phase ?? 'plan';
  const g = p.phase ? p.phases[p.phase] : undefined;
  const done = (g?.done ?? 0) + (g?.failed ?? 0);
  const total = g?.total ?? 0;
  const pct = total ? Math.floor((done / total) * 100) : 0;
  const failed = Object.values(p.failuresByReason).reduce((n, v) => n + v, 0);
  return (
    `[${phase}] ${bar(g?.done ?? 0, g?.failed ?? 0, total)} ${groupedInt(done)}/${groupedInt(total)} ${pct}%` +
    `  ${Math.round(p.callsPerMinute)}/min  ETA ${duration(p.etaSeconds)}  $${p.costUsd.toFixed(2)}` +
    (failed ? `  failed ${failed}` : '') +
    (p.status === 'paused' ? '  (paused)' : '')
  );
}

export function estimateText(e: CostEstimate): string {
  const lines = ['Plan:'];
  for (const r of e.rows) {
    const cached = r.cachedCalls ? ` (${r.cachedCalls} already stored)` : '';
    lines.push(`  ${r.label.padEnd(24)} ${r.kind.padEnd(9)} ${String(r.calls).padStart(6)} calls${cached}`);
  }
  const cost = e.unpricedModels.length
    ? `$${e.costUsd.toFixed(2)} (+ unpriced: ${e.unpricedModels.join(', ')})`
    : `$${e.costUsd.toFixed(2)}`;
  lines.push(
    `  total ${e.calls} calls, ${e.cachedCalls} already stored; ~${groupedInt(e.inputTokens)} input and ` +
      `~${groupedInt(e.outputTokens)} output tokens; estimated cost ${cost}; ` +
      `~${duration(e.minutesAtRateLimits * 60)} at the configured rate limits` +
      (e.minutesRange
        ? ` (no RPM limit: ${duration(e.minutesRange[0] * 60)} to ${duration(e.minutesRange[1] * 60)}, as fast as the server answers)`
        : ''),
  );
  if (e.batchWindowHours !== undefined) {
    const batched = e.rows.filter((r) => r.batch).reduce((n, r) => n + r.calls - r.cachedCalls, 0);
    lines.push(
      `  ${batched} calls go through Batch APIs at batch prices (live: $${(e.liveCostUsd ?? 0).toFixed(2)}); ` +
        `each round of batches is answered within the providers' ${e.batchWindowHours} h window`,
    );
  }
  lines.push(...tierLines(e));
  return lines.join('\n') + '\n';
}

/** Per model, what is left at the standard rate, through a Batch API, on flex, and on one's own cluster. */
function tierLines(e: CostEstimate): string[] {
  const tiers = (e.tiers ?? []).filter((t) => t.calls > 0);
  if (!tiers.length) return [];
  const usd = (n: number, priced: boolean) => (priced ? `$${n.toFixed(2)}` : `$${n.toFixed(2)} (unpriced)`);
  const out = ['Ways to pay for what is left (per model):'];
  for (const t of tiers) {
    out.push(`  ${t.label} (${t.role}, ${t.model}), ${t.calls} calls:`);
    out.push(
      `    standard        ${usd(t.standard.usd, t.priced).padEnd(12)} ~${duration(t.standard.minutes * 60)}`,
    );
    if (t.batch)
      out.push(
        `    Batch API       ${usd(t.batch.usd, t.priced).padEnd(12)} within ${t.batch.windowHours} h per round (${t.batch.rounds} round${t.batch.rounds === 1 ? '' : 's'})`,
      );
    if (t.flex)
      out.push(
        `    flex            ${usd(t.flex.usd, t.priced).padEnd(12)} ~${duration(t.flex.minutes * 60)} or more (slower answers; 429 "resource unavailable" waited out)`,
      );
    out.push(
      `    cluster export  $0.00        at API prices: your GPUs' cost and time (judge-lab batch export, vllm run-batch)`,
    );
  }
  return out;
}

const list = (entries: [string, number][]) => entries.map(([k, n]) => `${k} ${n}`).join(', ');

/**
 * The end-of-run lines about failed calls, and how many failed for infrastructure reasons
 * (which `--retry-failed` sends again) as opposed to unusable answers.
 */
export function failureSummary(
  byKind: Record<string, number>,
  retryCommand: string,
  cutOffReads = 0,
): { text: string; infrastructure: number } {
  const { infrastructure, answers } = splitFailures(byKind);
  const infra = infrastructure.reduce((n, [, v]) => n + v, 0);
  const total = infra + answers.reduce((n, [, v]) => n + v, 0);
  const cutOff = cutOffReads
    ? `${cutOffReads} answer${cutOffReads === 1 ? ' was' : 's were'} cut off at the output limit and read from the fields written out whole (not asked again).`
    : '';
  if (!total) return { text: cutOff ? cutOff + '\n' : '', infrastructure: 0 };
  const lines = [`Failed calls: ${total} (${list([...infrastructure, ...answers])}).`];
  if (cutOff) lines.push(`  ${cutOff}`);
  if (answers.length)
    lines.push(
      `  Unusable answers (${list(answers)}) are recorded with their raw text and counted in every report.`,
    );
  if (infra)
    lines.push(
      `  ${infra} failed for infrastructure reasons (${list(infrastructure)}); once the provider is fine, send them again with:\n    ${retryCommand}`,
    );
  return { text: lines.join('\n') + '\n', infrastructure: infra };
}

export class ProgressPrinter {
  private lastPrint = 0;
  private lastLine = '';
  /** Lanes waiting (outage) or paused, by endpoint and model, with the kind last shown. */
  private waiting = new Map<string, string>();
  /** The last state shown per provider batch. */
  private batchStates = new Map<number, string>();

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly intervalMs = stream.isTTY ? 200 : 5000,
  ) {}

  update(p: ExperimentProgress, force = false): void {
    this.showWaiting(p);
    this.showBatches(p);
    if (!p.phase || !p.phases[p.phase]?.total) return;
    const now = Date.now();
    if (!force && now - this.lastPrint < this.intervalMs) return;
    this.lastPrint = now;
    const line = progressLine(p);
    if (this.stream.isTTY) this.stream.write(`\r\x1b[2K${line}`);
    else if (line !== this.lastLine) this.stream.write(line + '\n');
    this.lastLine = line;
  }

  end(): void {
    if (this.stream.isTTY) this.stream.write('\n');
  }

  /** A line whenever a provider batch changes state (submitted, processing, ended). */
  private showBatches(p: ExperimentProgress): void {
    const lines: string[] = [];
    for (const b of p.batches ?? []) {
      const state = `${b.status}${b.remoteStatus ? ` (${b.remoteStatus})` : ''}`;
      if (this.batchStates.get(b.id) === state) continue;
      this.batchStates.set(b.id, state);
      lines.push(`Batch ${b.remoteId ?? b.id}: ${b.requests} requests to ${b.model}: ${state}`);
    }
    if (!lines.length) return;
    if (this.stream.isTTY) this.stream.write('\r\x1b[2K');
    this.stream.write(lines.join('\n') + '\n');
    this.lastLine = '';
  }

  /** A line when an endpoint starts waiting (outage, bad key, quota) and when it sends again. */
  private showWaiting(p: ExperimentProgress): void {
    const now = new Map(p.pausedLanes.map((l) => [`${l.model} (${l.endpoint})`, l.kind]));
    const lines: string[] = [];
    for (const l of p.pausedLanes) {
      const key = `${l.model} (${l.endpoint})`;
      if (this.waiting.get(key) !== l.kind) lines.push(`Waiting: ${key}: ${l.reason}`);
    }
    for (const key of this.waiting.keys()) if (!now.has(key)) lines.push(`Sending again: ${key}`);
    this.waiting = now;
    if (!lines.length) return;
    if (this.stream.isTTY) this.stream.write('\r\x1b[2K');
    this.stream.write(lines.join('\n') + '\n');
    this.lastLine = '';
  }
}

/** Names on stderr the figures an export left out (drawing failed); the rest was written. */
export function warnFigureFailures(
  failures: readonly { id: string; format: string; error: string }[],
  write: (s: string) => void = (s) => process.stderr.write(s),
): void {
  if (failures.length === 0) return;
  write(
    `Warning: ${failures.length} figure file${failures.length > 1 ? 's' : ''} could not be drawn and ` +
      'were left out (every table and the other files were written; manifest.json lists them under figures_failed):\n' +
      failures.map((f) => `  figures/${f.id}.${f.format}: ${f.error}\n`).join(''),
  );
}
