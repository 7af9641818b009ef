// What a run reports while it goes. Plain data only: it crosses IPC and WebSocket as JSON.
import type { PhaseProgress } from '../../shared/experiments';

/** A group's counts (a stage, a model, the whole run): the same fields a phase shows on the wire. */
export type GroupProgress = PhaseProgress;

export interface PausedLane {
  endpoint: string;
  model: string;
  kind: string;
  reason: string;
  /** The early warning's group label (a judge) this lane was paused for. */
  label?: string;
}

export interface RunProgress {
  state: 'running' | 'paused' | 'cancelling' | 'finished' | 'cancelled' | 'blocked';
  elapsedMs: number;
  overall: GroupProgress;
  groups: Record<string, GroupProgress>;
  /** HTTP calls answered in the last 60 s (per minute; scaled up during the first minute). */
  callsPerMinute: number;
  /** Seconds left at the recent completion rate; null before there is a rate. */
  etaSeconds: number | null;
  tokens: { input: number; output: number; cached: number };
  costUsd: number;
  /** Models called in this run without a price (their cost counts as 0). */
  unpricedModels: string[];
  /** Failed jobs by failure kind (unparseable, bad_request, server, ...). */
  failuresByReason: Record<string, number>;
  /** HTTP calls made (all attempts), and of those answered 429. */
  calls: number;
  rateLimited: number;
  retries: number;
  /**
   * Answers cut off at the output limit whose whole fields held a usable answer: read, not
   * asked (and paid) again.
   */
  cutOffReads: number;
  pausedLanes: PausedLane[];
  /** The store cannot be written (disk full…): nothing is sent while the engine retries. */
  storeProblem?: string | null;
}

export interface RunSummary extends RunProgress {
  outcome: 'finished' | 'cancelled' | 'blocked';
}

export function emptyGroup(): GroupProgress {
  return { total: 0, done: 0, failed: 0, cacheHits: 0, inFlight: 0, pending: 0 };
}

/** Events per second over the last `windowSec` seconds, in one-second buckets. */
export class SlidingCounter {
  private readonly buckets: number[];
  private readonly stamps: number[];

  constructor(private readonly windowSec = 60) {
    this.buckets = new Array<number>(windowSec).fill(0);
    this.stamps = new Array<number>(windowSec).fill(-1);
  }

  add(nowMs: number, n = 1): void {
    const sec = Math.floor(nowMs / 1000);
    const i = sec % this.windowSec;
    if (this.stamps[i] !== sec) {
      this.stamps[i] = sec;
      this.buckets[i] = 0;
    }
    this.buckets[i] += n;
  }

  /** Sum over the window ending now. */
  sum(nowMs: number): number {
    const sec = Math.floor(nowMs / 1000);
    let total = 0;
    for (let i = 0; i < this.windowSec; i++)
      if (this.stamps[i] > sec - this.windowSec) total += this.buckets[i];
    return total;
  }
}
