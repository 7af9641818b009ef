// What the calls alone cost, below the engine (issue 39): `npm run bench:floor [-- position]`.
// Sends the calls of bench:overhead's study shapes (default `study`: 838 translations on
// gpt-4.1-mini and 3,352 verdicts on each of three judges; `position`: 838 verdicts on one judge)
// to the same kind of loopback mock, at the same per-model rate and latency, from a bare client
// that stores nothing, plans nothing and exports nothing, and prints its CPU-seconds and peak RSS
// at three depths, each in a process of its own started as the `judge-lab` command starts:
//   fetch    the request bodies POSTed through the app's keep-alive fetch, the answers' JSON read
//   sdk      the same bodies through the official `openai` / `@anthropic-ai/sdk` clients
//   adapter  the app's provider adapters (request built from the spec, answer checked and parsed)
// The study's own figure (bench:overhead) less `adapter` is what the engine adds around the
// calls: its queue, ledger, plan, results and export. The bodies are the Judge-LS prompts built
// from the LLMBar texts by the app's own templates (judge calls on the English pair, both
// orders), so their sizes are the study's; the answers are the mock's default ones.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PAIRWISE_VERDICT_SCHEMA } from '../src/main/judging/pairwise';
import {
  buildAnthropicRequest,
  anthropicClient,
  AnthropicChatAdapter,
} from '../src/main/providers/anthropic';
import type { ProviderConfig } from '../src/main/providers/config';
import { keepAliveFetch } from '../src/main/providers/http-fetch';
import { buildOpenAIRequest, openAIClient, OpenAIChatAdapter } from '../src/main/providers/openai';
import { jsonBody } from '../src/main/providers/sdk';
import { warnOnce } from '../src/main/providers/sdk-warnings';
import type { ChatRequestSpec } from '../src/main/providers/types';
import {
  DEFAULT_TEMPLATES,
  LANGUAGE_VARIANT_SCHEMA,
  renderJudgePrompt,
  renderTransformPrompt,
} from '../src/main/protocols/judge-ls/prompts';
import { cliLauncher } from './lib/launcher';
import { llmbarItems, runMockIfAsked, spawnMock } from './lib/mock-process';

const DEPTHS = ['fetch', 'sdk', 'adapter'] as const;
type Depth = (typeof DEPTHS)[number];

interface Shape {
  name: 'study' | 'position';
  rpm: number;
  latencyMs: [number, number];
  /** Model → its calls' specs. */
  lanes: () => Map<string, ChatRequestSpec[]>;
}

const ANTHROPIC = /^claude/;
const providerOf = (model: string) => (ANTHROPIC.test(model) ? 'anthropic' : 'openai');

/** The judge calls of `items` in both orders, `conditions` times each (Judge-LS: EN, ZH, LS, tie probe). */
function judgeSpecs(model: string, conditions: number): ChatRequestSpec[] {
  const out: ChatRequestSpec[] = [];
  for (let c = 0; c < conditions; c++)
    for (const it of llmbarItems())
      for (const swap of [false, true]) {
        const p = renderJudgePrompt(DEFAULT_TEMPLATES, {
          instruction: it.instruction,
          outputA: (swap ? it.output2 : it.output1) ?? '',
          outputB: (swap ? it.output1 : it.output2) ?? '',
        });
        out.push({
          provider: providerOf(model),
          model,
          system: p.system,
          messages: [{ role: 'user', content: p.user }],
          temperature: 0,
          response: PAIRWISE_VERDICT_SCHEMA,
        });
      }
  return out;
}

function transformSpecs(model: string): ChatRequestSpec[] {
  const out: ChatRequestSpec[] = [];
  for (const language of ['ZH', 'LS'] as const)
    for (const it of llmbarItems()) {
      const p = renderTransformPrompt(DEFAULT_TEMPLATES, language, {
        instruction: it.instruction,
        output1: it.output1 ?? '',
        output2: it.output2 ?? '',
      });
      out.push({
        provider: 'openai',
        model,
        system: p.system,
        messages: [{ role: 'user', content: p.user }],
        temperature: 0,
        response: LANGUAGE_VARIANT_SCHEMA,
      });
    }
  return out;
}

const SHAPES: Record<Shape['name'], Shape> = {
  study: {
    name: 'study',
    rpm: 3000,
    latencyMs: [20, 80],
    lanes: () =>
      new Map([
        ['gpt-4.1-mini', transformSpecs('gpt-4.1-mini')],
        ...['claude-haiku-4-5', 'gpt-4.1', 'claude-sonnet-4-5'].map(
          (m) => [m, judgeSpecs(m, 4)] as [string, ChatRequestSpec[]],
        ),
      ]),
  },
  position: {
    name: 'position',
    rpm: 3000,
    latencyMs: [250, 350],
    lanes: () => new Map([['gpt-4.1', judgeSpecs('gpt-4.1', 1)]]),
  },
};

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
async function clientMain(depth: Depth, shapeName: Shape['name'], url: string) {
  const shape = SHAPES[shapeName];
  const lanes = shape.lanes();
  const send = await sender(depth, url);
  const gap = 60_000 / shape.rpm;
  const atStart = process.resourceUsage();
  const t0 = performance.now();
  let failed = 0;
  let calls = 0;
  let firstError = '';
  await Promise.all(
    [...lanes].map(async ([model, specs]) => {
      const one = send(model);
      const pending: Promise<void>[] = [];
      for (let i = 0; i < specs.length; i++) {
        // Each lane keeps the provider's rate, as the app's limiter does; a late timer catches up.
        const wait = t0 + i * gap - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        calls++;
        pending.push(
          one(specs[i]).then(
            () => undefined,
            (err: unknown) => {
              failed++;
              firstError ||= String(err);
            },
          ),
        );
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

interface ClientFigures {
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
function runClient(entry: string, depth: Depth, shape: Shape['name'], url: string): Promise<ClientFigures> {
  const launcher = cliLauncher(process.cwd());
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...launcher.nodeArgs, entry, 'client', depth, shape, url], {
      env: { ...process.env, ...launcher.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) =>
      code === 0 ? done(JSON.parse(out) as ClientFigures) : fail(new Error(`${depth} client exited ${code}`)),
    );
  });
}

async function main() {
  const entry = fileURLToPath(import.meta.url);
  const shapeName = process.argv[2] === 'position' ? 'position' : 'study';
  const runs = Math.max(1, Number(process.env.FLOOR_RUNS ?? 1));
  const shape = SHAPES[shapeName];
  // No rate limit at the mock: the clients keep the rate themselves, and a 429 would be a call
  // the floor pays and the app (whose limiter waits) would not.
  const mock = await spawnMock(entry, { burstSeconds: 3, latencyMs: shape.latencyMs });
  try {
    const calls = [...shape.lanes().values()].reduce((n, s) => n + s.length, 0);
    console.log(
      `The calls alone (${shapeName}: ${calls} calls, ${shape.rpm} RPM per model, ${shape.latencyMs.join('–')} ms latency), a client that stores nothing:`,
    );
    let bad = false;
    for (let r = 0; r < runs; r++)
      for (const depth of DEPTHS) {
        const f = await runClient(entry, depth, shapeName, mock.url);
        bad ||= f.failed > 0 || f.calls !== calls;
        console.log(
          `    ${depth.padEnd(8)} CPU ${f.cpuS.toFixed(2)} s (user ${f.userS.toFixed(2)}, system ${f.sysS.toFixed(2)}; ${f.setupS.toFixed(2)} before the first call); peak RSS ${f.rssMiB.toFixed(0)} MiB; wall ${f.wallS.toFixed(1)} s; ${f.calls} calls${f.failed ? `, ${f.failed} FAILED (${f.firstError})` : ''}`,
        );
      }
    console.log(`    the mock's CPU ${(await mock.stats()).cpuSeconds.toFixed(1)} s`);
    if (bad) process.exitCode = 1;
  } finally {
    mock.close();
  }
}

const [mode, depth, shapeArg, url] = process.argv.slice(2);
if (await runMockIfAsked()) {
  // This process is the mock.
} else if (mode === 'client') {
  await clientMain(depth as Depth, shapeArg as Shape['name'], url);
} else {
  await main();
}
