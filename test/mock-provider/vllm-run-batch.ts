// A stand-in for `vllm run-batch -i INPUT -o OUTPUT --model MODEL` (vLLM's offline batch runner,
// vllm/entrypoints/openai/run_batch.py): reads an OpenAI Batch input file, answers each line with
// the test's responder, and writes the output file vLLM writes: one JSON line per request,
// `{"id": "vllm-…", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}`,
// with `body` a chat completion on success and `error` a string (and `body` null) on failure.
// Like vLLM it refuses a line whose method, url or model it does not serve, per line.
// Knobs plant what a real cluster run can leave: errored lines, answers that are not the JSON
// asked for, a run that stopped part way (the output file cut short, its last line half written).
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseOpenAI, sampleFromSchema, type MockRequest } from './server';

export interface VllmRunBatchOptions {
  /** The answer object for a request (default: one that satisfies its schema). */
  respond?: (req: MockRequest) => unknown;
  /** Lines (1-based input line number) answered with an error instead (vLLM's 400 or 500). */
  errorAt?: (line: number, customId: string) => 400 | 500 | undefined;
  /** Lines whose answer is prose, not the JSON asked for. */
  proseAt?: (line: number, customId: string) => boolean;
  /** The run stopped after this many output lines, the next one half written (a partial file). */
  stopAfter?: number;
}

export interface VllmRunBatchResult {
  /** custom ids of the input, in order. */
  inputIds: string[];
  /** custom ids written as complete output lines. */
  written: string[];
}

const tokens = (text: string) => Math.ceil(text.length / 4);

/** `argv` as the real command takes it: `-i FILE -o FILE --model NAME` (long forms too). */
export function vllmRunBatch(argv: string[], opts: VllmRunBatchOptions = {}): VllmRunBatchResult {
  const arg = (short: string, long: string) => {
    const i = argv.findIndex((a) => a === short || a === long);
    if (i < 0 || i + 1 >= argv.length) throw new Error(`vllm run-batch: ${long} is required`);
    return argv[i + 1];
  };
  const input = arg('-i', '--input-file');
  const output = arg('-o', '--output-file');
  const model = arg('--model', '--model');
  const respond = opts.respond ?? ((req: MockRequest) => sampleFromSchema(req.schema));
  const lines = readFileSync(input, 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  const out: string[] = [];
  const inputIds: string[] = [];
  const line = (customId: string, status: number, body: unknown, error: string | null) =>
    JSON.stringify({
      id: `vllm-${randomUUID().replace(/-/g, '')}`,
      custom_id: customId,
      response: { status_code: status, request_id: `vllm-batch-${randomUUID().replace(/-/g, '')}`, body },
      error,
    });
  lines.forEach((raw, i) => {
    const n = i + 1;
    const e = JSON.parse(raw) as {
      custom_id: string;
      method: string;
      url: string;
      body: Record<string, unknown>;
    };
    inputIds.push(e.custom_id);
    if (e.method !== 'POST' || e.url !== '/v1/chat/completions')
      return out.push(line(e.custom_id, 400, null, `Unsupported url or method: ${e.method} ${e.url}`));
    if (e.body.model !== model)
      return out.push(line(e.custom_id, 404, null, `The model \`${String(e.body.model)}\` does not exist.`));
    const planted = opts.errorAt?.(n, e.custom_id);
    if (planted === 400)
      return out.push(line(e.custom_id, 400, null, "This model's maximum context length is 4096 tokens."));
    if (planted === 500)
      return out.push(line(e.custom_id, 500, null, 'Internal server error: CUDA out of memory'));
    const req = parseOpenAI(e.body);
    const obj = respond(req);
    const text = opts.proseAt?.(n, e.custom_id)
      ? 'Both answers have merits; I would rather not choose.'
      : typeof obj === 'string' && !req.schema
        ? obj
        : JSON.stringify(obj);
    const prompt = (req.system ?? '') + req.messages.map((m) => m.content).join('\n');
    out.push(
      line(
        e.custom_id,
        200,
        {
          id: `chatcmpl-${randomUUID().replace(/-/g, '')}`,
          object: 'chat.completion',
          created: 1_767_225_600,
          model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: text, tool_calls: [] },
              logprobs: null,
              finish_reason: 'stop',
              stop_reason: null,
            },
          ],
          usage: {
            prompt_tokens: tokens(prompt),
            total_tokens: tokens(prompt) + tokens(text),
            completion_tokens: tokens(text),
            prompt_tokens_details: null,
          },
          prompt_logprobs: null,
        },
        null,
      ),
    );
  });
  const stop = opts.stopAfter;
  const kept = stop === undefined ? out : out.slice(0, stop);
  const cut =
    stop !== undefined && stop < out.length ? out[stop].slice(0, Math.floor(out[stop].length / 2)) : null;
  writeFileSync(output, kept.map((l) => l + '\n').join('') + (cut ?? ''));
  return { inputIds, written: kept.map((l) => (JSON.parse(l) as { custom_id: string }).custom_id) };
}
