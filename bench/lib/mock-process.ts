// The loopback mock provider in a child process of its own, so a benchmark's figures are the
// engine's (or the CLI's), not the mock's. The benchmark's entry file re-runs itself with
// `mock <behavior json>`: call `runMockIfAsked()` first thing in the entry.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDatasetFile } from '../../src/main/import';
import type { Item } from '../../src/shared/domain';
import {
  DEFAULT_PROFILES,
  judgeLsResponder,
  type JudgeProfile,
} from '../../test/mock-provider/judge-ls-responder';
import { biasResponder, type PairRecord } from '../../test/mock-provider/bias-responder';
import { refSensResponder, type QaRecord } from '../../test/mock-provider/refsens-responder';
import { startMockProvider, type MockBehavior, type MockProvider } from '../../test/mock-provider/server';

export const LLMBAR = join(process.cwd(), 'resources', 'samples', 'llmbar.jsonl');

/** Mock options that are not a MockBehavior. */
export interface MockExtras {
  /** Answer as the Judge-LS models on the LLMBar sample. */
  judgeLs?: boolean;
  /** Judge models beyond the responder's defaults (each gets a profile of its own). */
  extraJudges?: string[];
  /** Answer as the reference-sensitivity models on the questions of this JSONL file. */
  refsensFile?: string;
  /** Answer as the bias-probes judges on the LLMBar sample. */
  bias?: boolean;
}

export interface MockStats {
  total: number;
  byStatus: Record<string, number>;
  byModel: Record<string, number>;
  /** Arrival of the first request and end of the last answer (ms since the epoch). */
  firstAt: number | null;
  lastEndedAt: number | null;
  /** The mock process's own CPU time since it started (user + system), in seconds. */
  cpuSeconds: number;
}

export interface MockHandle {
  url: string;
  stats(): Promise<MockStats>;
  close(): void;
}

/** The mock in a child process: `entry` (the running benchmark's own file) with "mock <json>". */
export async function spawnMock(
  entry: string,
  behavior: Partial<MockBehavior> & MockExtras,
): Promise<MockHandle> {
  const child = spawn(process.execPath, [entry, 'mock', JSON.stringify(behavior)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const w = waiters.shift();
      if (w) w(line);
      else lines.push(line);
    }
  });
  const next = () => new Promise<string>((res) => (lines.length ? res(lines.shift()!) : waiters.push(res)));
  const url = await next();
  return {
    url,
    async stats() {
      child.stdin.write('stats\n');
      return JSON.parse(await next()) as MockStats;
    },
    close: () => child.kill(),
  };
}

export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export function llmbarItems(): Item[] {
  return parseDatasetFile('llmbar.jsonl', readFileSync(LLMBAR)).items.map((it, i) => ({
    ...it,
    id: i + 1,
    datasetId: 1,
    position: i + 1,
  }));
}

/** An extra judge's profile: the first default's, shifted a little per model so verdicts differ. */
function profileFor(model: string, i: number): JudgeProfile {
  const base = Object.values(DEFAULT_PROFILES)[i % Object.keys(DEFAULT_PROFILES).length];
  const d = 0.01 * ((model.length % 5) - 2);
  return {
    ...base,
    accuracy: { EN: base.accuracy.EN + d, ZH: base.accuracy.ZH + d, LS: base.accuracy.LS + d },
  };
}

async function mockMain(behaviorJson: string) {
  const { judgeLs, extraJudges, refsensFile, bias, ...behavior } = JSON.parse(
    behaviorJson,
  ) as Partial<MockBehavior> & MockExtras;
  const profiles = { ...DEFAULT_PROFILES };
  (extraJudges ?? []).forEach((m, i) => (profiles[m] ??= profileFor(m, i)));
  const responder = judgeLs ? judgeLsResponder(llmbarItems(), { profiles }) : undefined;
  const refsens = refsensFile ? refSensResponder(readJsonl<QaRecord>(refsensFile)) : undefined;
  const biasR = bias ? biasResponder(readJsonl<PairRecord>(LLMBAR)) : undefined;
  const mock = await startMockProvider({
    ...behavior,
    ...(responder ? { respond: responder.respond, wrapText: false } : {}),
    ...(refsens ? { respond: refsens.respond } : {}),
    ...(biasR ? { respond: biasR.respond } : {}),
    logBodies: false,
  });
  process.stdout.write(`${mock.url}\n`);
  process.stdin.on('data', () => {
    process.stdout.write(`${JSON.stringify(mockStats(mock))}\n`);
  });
}

/** A mock's counts so far (its process's CPU time included: the mock runs in its own process). */
export function mockStats(mock: MockProvider): MockStats {
  let firstAt: number | null = null;
  let lastEndedAt: number | null = null;
  for (const e of mock.log) {
    firstAt = firstAt === null ? e.at : Math.min(firstAt, e.at);
    lastEndedAt = Math.max(lastEndedAt ?? 0, e.endedAt ?? e.at);
  }
  const cpu = process.cpuUsage();
  return {
    total: mock.log.length,
    byStatus: mock.countBy((e) => String(e.status)),
    byModel: mock.countBy((e) => e.model ?? '?'),
    firstAt,
    lastEndedAt,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

/** True (and the mock serving) when this process was started as the mock. */
export async function runMockIfAsked(): Promise<boolean> {
  const [mode, arg] = process.argv.slice(2);
  if (mode !== 'mock') return false;
  await mockMain(arg);
  return true;
}
