// The calls of a study shape sent by a bare client that stores, plans and exports nothing
// (issue 39's yardstick: what the calls cost by themselves, measured the same day as the study).
// Used by bench/provider-floor.ts (`npm run bench:floor`) and bench/overhead.ts (`--floor`). The
// client runs in a process of its own, started as the `judge-lab` command starts: the entry that
// uses this module calls `runFloorClientIfAsked()` first thing (as with the mock).
// Depths: `fetch` POSTs the request bodies through the app's keep-alive fetch and reads the
// answers' JSON; `sdk` sends the same bodies through the official `openai` / `@anthropic-ai/sdk`
// clients; `adapter` goes through the app's provider adapters (request built from the spec, the
// answer checked and parsed). The bodies are the Judge-LS prompts built from the LLMBar texts by
// the app's own templates (judge calls on the English pair, both orders), so their sizes are the
// study's; the answers are the mock's default ones.
import { spawn } from 'node:child_process';
import { PAIRWISE_VERDICT_SCHEMA } from '../../src/main/judging/pairwise';
import {
  buildAnthropicRequest,
  anthropicClient,
  AnthropicChatAdapter,
} from '../../src/main/providers/anthropic';
import type { ProviderConfig } from '../../src/main/providers/config';
import { keepAliveFetch } from '../../src/main/providers/http-fetch';
import { buildOpenAIRequest, openAIClient, OpenAIChatAdapter } from '../../src/main/providers/openai';
import { jsonBody } from '../../src/main/providers/sdk';
import { warnOnce } from '../../src/main/providers/sdk-warnings';
import type { ChatRequestSpec, ResponseSchema } from '../../src/main/providers/types';
import {
  DEFAULT_TEMPLATES,
  LANGUAGE_VARIANT_SCHEMA,
  renderJudgePrompt,
  renderTransformPrompt,
  type RenderedPrompt,
} from '../../src/main/protocols/judge-ls/prompts';
import type { Item } from '../../src/shared/domain';
import { ANTHROPIC, STUDY_SHAPES, TRANSFORM_MODEL, type StudyShape, type StudyShapeName } from './cli-study';
import { cliLauncher } from './launcher';
import { llmbarItems } from './mock-process';

export const DEPTHS = ['fetch', 'sdk', 'adapter'] as const;
export type Depth = (typeof DEPTHS)[number];

/** A lane's calls, built one at a time as they are sent (the app, too, loads a request when it sends it). */
interface Lane {
  count: number;
  spec: (i: number) => ChatRequestSpec;
}

const providerOf = (model: string) => (ANTHROPIC.test(model) ? 'anthropic' : 'openai');

function specOf(model: string, prompt: RenderedPrompt, response: ResponseSchema): ChatRequestSpec {
  return {
    provider: providerOf(model),
    model,
    system: prompt.system,
    messages: [{ role: 'user', content: prompt.user }],
    temperature: 0,
    response,
  };
}

/** The judge calls on the items in both orders, `conditions` times each (Judge-LS: EN, ZH, LS, tie probe). */
function judgeLane(items: Item[], model: string, conditions: number): Lane {
  return {
    count: conditions * items.length * 2,
    spec: (i) => {
      const it = items[Math.floor(i / 2) % items.length];
      const swap = i % 2 === 1;
      const p = renderJudgePrompt(DEFAULT_TEMPLATES, {
        instruction: it.instruction,
        outputA: (swap ? it.output2 : it.output1) ?? '',
        outputB: (swap ? it.output1 : it.output2) ?? '',
      });
      return specOf(model, p, PAIRWISE_VERDICT_SCHEMA);
    },
  };
}

/** The translations of every item into Chinese and the low-resource language. */
function transformLane(items: Item[], model: string): Lane {
  return {
    count: 2 * items.length,
    spec: (i) => {
      const it = items[i % items.length];
      const p = renderTransformPrompt(DEFAULT_TEMPLATES, i < items.length ? 'ZH' : 'LS', {
        instruction: it.instruction,
        output1: it.output1 ?? '',
        output2: it.output2 ?? '',
      });
      return specOf(model, p, LANGUAGE_VARIANT_SCHEMA);
    },
  };
}

/**
 * Model → its calls in a study shape: a position study's verdicts on the pairs in both orders;
 * a Judge-LS study's translations into two languages, then each judge's verdicts on the pairs in
 * four conditions and both orders.
 */
function lanesOf(shape: StudyShape): Map<string, Lane> {
  const items = llmbarItems().slice(0, shape.items);
  if (shape.study === 'position') return new Map(shape.judges.map((m) => [m, judgeLane(items, m, 1)]));
  return new Map([
    [TRANSFORM_MODEL, transformLane(items, TRANSFORM_MODEL)],
    ...shape.judges.map((m) => [m, judgeLane(items, m, 4)] as [string, Lane]),
  ]);
}

/** Calls in a study shape. */
export function floorCalls(shape: StudyShape): number {
  return [...lanesOf(shape).values()].reduce((n, l) => n + l.count, 0);
}

const providerConfig = (url: string, kind: 'openai' | 'anthropic'): ProviderConfig =>
  ({ kind, baseURL: kind === 'openai' ? `${url}/v1` : url, apiKeyEnv: 'MOCK_KEY' }) as ProviderConfig;

/** One call at `depth`; resolves when its answer is read (and, for `adapter`, parsed). */
type Send = (spec: ChatRequestSpec) => Promise<unknown>;

async function sender(depth: Depth, url: string): Promise<(model: string) => Send> {
  const cfg = { openai: providerConfig(url, 'openai'), anthropic: providerConfig(url, 'anthropic') };
  const key = 'sk-floor';
  if (depth === 'adapter') {
    const openai = new OpenAIChatAdapter(cfg.openai, key);
    const anthropic = new AnthropicChatAdapter(cfg.anthropic, key);
    return (model) => (ANTHROPIC.test(model) ? (s) => anthropic.send(s) : (s) => openai.send(s));
  }
  if (depth === 'sdk') {
    const openai = await openAIClient(cfg.openai, key, 0);
    const anthropic = await anthropicClient(cfg.anthropic, key, 0);
    return (model) =>
      ANTHROPIC.test(model)
        ? async (s) =>
            // As the app calls it: the SDK's deprecation warning (on every call) shown once.
            jsonBody(
              await warnOnce(() =>
                anthropic.messages.create(buildAnthropicRequest(s, cfg.anthropic)),
              ).asResponse(),
            )
        : async (s) =>
            jsonBody(await openai.chat.completions.create(buildOpenAIRequest(s, cfg.openai)).asResponse());
  }
  const post = async (path: string, headers: Record<string, string>, body: unknown) => {
    const res = await keepAliveFetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return jsonBody(res);
  };
  return (model) =>
    ANTHROPIC.test(model)
      ? (s) =>
          post(
            '/v1/messages',
            { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
            buildAnthropicRequest(s, cfg.anthropic),
          )
      : (s) =>
          post('/v1/chat/completions', { authorization: `Bearer ${key}` }, buildOpenAIRequest(s, cfg.openai));
}

/** The client process: every lane's calls at the shape's rate, then its figures on stdout. */
async function clientMain(depth: Depth, shapeName: StudyShapeName, url: string) {
  const shape: StudyShape = STUDY_SHAPES[shapeName];
  const lanes = lanesOf(shape);
  const send = await sender(depth, url);
  const gap = 60_000 / shape.rpm;
  const atStart = process.resourceUsage();
  const t0 = performance.now();
  let failed = 0;
  let calls = 0;
  let firstError = '';
  await Promise.all(
    [...lanes].map(async ([model, lane]) => {
      const one = send(model);
      const pending = new Set<Promise<void>>();
      for (let i = 0; i < lane.count; i++) {
        // Each lane keeps the provider's rate, as the app's limiter does; a late timer catches up.
        const wait = t0 + i * gap - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        calls++;
        // Only the calls on the wire are held, as in the app.
        const call: Promise<void> = one(lane.spec(i)).then(
          () => void pending.delete(call),
          (err: unknown) => {
            pending.delete(call);
            failed++;
            firstError ||= String(err);
          },
        );
        pending.add(call);
      }
      await Promise.all(pending);
    }),
  );
  const u = process.resourceUsage();
  process.stdout.write(
    `${JSON.stringify({
      depth,
      calls,
      failed,
      firstError,
      wallS: (performance.now() - t0) / 1e3,
      cpuS: (u.userCPUTime + u.systemCPUTime) / 1e6,
      setupS: (atStart.userCPUTime + atStart.systemCPUTime) / 1e6,
      userS: u.userCPUTime / 1e6,
      sysS: u.systemCPUTime / 1e6,
      rssMiB: u.maxRSS / 1024,
    })}\n`,
  );
}

export interface FloorFigures {
  depth: Depth;
  calls: number;
  failed: number;
  firstError: string;
  wallS: number;
  cpuS: number;
  /** CPU-seconds before the first call: Node's start, the modules, the specs built. */
  setupS: number;
  userS: number;
  sysS: number;
  rssMiB: number;
}

/** Runs one client process, started as the installed command starts (its variables and Node options). */
export function runFloorClient(
  entry: string,
  depth: Depth,
  shape: StudyShapeName,
  url: string,
): Promise<FloorFigures> {
  const launcher = cliLauncher(process.cwd());
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...launcher.nodeArgs, entry, 'floor-client', depth, shape, url], {
      env: { ...process.env, ...launcher.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) =>
      code === 0 ? done(JSON.parse(out) as FloorFigures) : fail(new Error(`${depth} client exited ${code}`)),
    );
  });
}

/** One line of figures. */
export function floorLine(f: FloorFigures): string {
  return `${f.depth.padEnd(8)} CPU ${f.cpuS.toFixed(2)} s (user ${f.userS.toFixed(2)}, system ${f.sysS.toFixed(2)}; ${f.setupS.toFixed(2)} before the first call); peak RSS ${f.rssMiB.toFixed(0)} MiB; wall ${f.wallS.toFixed(1)} s; ${f.calls} calls${f.failed ? `, ${f.failed} FAILED (${f.firstError})` : ''}`;
}

/** True (and the client run) when this process was started as a floor client. */
export async function runFloorClientIfAsked(): Promise<boolean> {
  const [mode, depth, shape, url] = process.argv.slice(2);
  if (mode !== 'floor-client') return false;
  await clientMain(depth as Depth, shape as StudyShapeName, url);
  return true;
}
