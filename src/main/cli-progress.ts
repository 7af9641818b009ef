// The CLI's progress line on stderr: redrawn in place on a terminal, a line every few
// seconds when stderr is a file or a pipe (CI logs).
import type { CostEstimate, ExperimentProgress } from '../shared/experiments';

const BAR_WIDTH = 24;

function bar(done: number, total: number): string {
  const filled = total ? Math.round((done / total) * BAR_WIDTH) : 0;
  return '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
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
    `[${phase}] ${bar(done, total)} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${pct}%` +
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
    `  total ${e.calls} calls, ${e.cachedCalls} already stored; ~${e.inputTokens.toLocaleString('en-US')} input and ` +
      `~${e.outputTokens.toLocaleString('en-US')} output tokens; estimated cost ${cost}; ` +
      `~${duration(e.minutesAtRateLimits * 60)} at the configured rate limits`,
  );
  return lines.join('\n') + '\n';
}

export class ProgressPrinter {
  private lastPrint = 0;
  private lastLine = '';

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly intervalMs = stream.isTTY ? 200 : 5000,
  ) {}

  update(p: ExperimentProgress, force = false): void {
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
}
