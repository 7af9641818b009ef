// The experiment config of DESIGN.md section 7: one JSON file that says what to run.
// Strict throughout: a misspelt key is an error naming it, never a silently ignored setting.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { AppError } from '../core/errors';
import { readConfigText, structuralProblems } from '../core/config-input';
import { rateLimitSchema } from '../core/input-limits';
import { folderNameProblem } from '../core/names';
import { judgeLsOptionsSchema } from '../protocols/judge-ls/config';
import { providerConfigSchema } from '../providers/config';

const limits = {
  rpm: rateLimitSchema('rpm').optional(),
  tpm: rateLimitSchema('tpm').optional(),
  concurrency: z.number().int().positive().max(1024).optional(),
};

const judgeSchema = z.strictObject({
  label: z.string().trim().min(1).max(100),
  provider: z.string().min(1),
  model: z.string().min(1),
  temperature: z.number().min(0).max(2).nullable().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  // A judge may override its endpoint's per-model limits (DESIGN.md section 7).
  ...limits,
});

const transformSchema = z.strictObject({
  provider: z.string().min(1),
  model: z.string().min(1),
  languages: z
    .array(z.enum(['ZH', 'LS']))
    .min(1)
    .optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  ...limits,
});

/** USD per million tokens; an entry replaces the shipped price of that model as a whole. */
const priceSchema = z.strictObject({
  input: z.number().min(0),
  cachedInput: z.number().min(0).optional(),
  output: z.number().min(0),
  batchInput: z.number().min(0).optional(),
  batchOutput: z.number().min(0).optional(),
});

export const experimentConfigSchema = z
  .strictObject({
    name: z.string().superRefine((name, ctx) => {
      const problem = folderNameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    protocol: z.literal('judge-ls'),
    /** A dataset file (relative to the config file), the name of an imported dataset, or its id. */
    dataset: z.union([z.string().min(1), z.number().int().positive()]),
    providers: z.record(z.string().min(1), providerConfigSchema),
    transform: transformSchema,
    judges: z.array(judgeSchema).min(1),
    tieProbes: z.boolean().optional(),
    limit: z.number().int().positive().optional(),
    /** Protocol options beyond the common ones: audit thresholds, templates, temperatures. */
    options: z.record(z.string(), z.unknown()).optional(),
    /** Re-asks of an unparseable answer before it is recorded failed. */
    maxParseRetries: z.number().int().min(0).max(10).optional(),
    /** USD per million tokens, overriding the shipped price table per model. */
    prices: z.record(z.string().min(1), priceSchema).optional(),
  })
  .superRefine((cfg, ctx) => {
    const known = Object.keys(cfg.providers);
    const check = (provider: string, path: (string | number)[]) => {
      if (!Object.hasOwn(cfg.providers, provider)) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: `no provider named "${provider}" in "providers" (have: ${known.join(', ') || 'none'})`,
        });
      }
    };
    check(cfg.transform.provider, ['transform', 'provider']);
    for (const key of ['languages', 'tieProbes', 'limit']) {
      if (cfg.options && Object.hasOwn(cfg.options, key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['options', key],
          message: `set "${key}" at the top level, not in options`,
        });
      }
    }
    const protocolOptions = judgeLsOptionsSchema.safeParse(protocolOptionsOf(cfg));
    if (!protocolOptions.success) {
      for (const i of protocolOptions.error.issues) {
        const [head] = i.path;
        const path =
          head === 'languages'
            ? ['transform', ...i.path]
            : head === 'tieProbes' || head === 'limit'
              ? i.path
              : ['options', ...i.path];
        const keys = i.code === 'unrecognized_keys' ? i.keys : [undefined];
        for (const k of keys)
          ctx.addIssue({
            code: 'custom',
            path: k === undefined ? path : [...path, k],
            message: k === undefined ? i.message : 'unknown key',
          });
      }
    }
    const seen = new Set<string>();
    cfg.judges.forEach((j, i) => {
      check(j.provider, ['judges', i, 'provider']);
      if (seen.has(j.label))
        ctx.addIssue({
          code: 'custom',
          path: ['judges', i, 'label'],
          message: `duplicate label "${j.label}"`,
        });
      seen.add(j.label);
    });
  });

export type ExperimentConfig = z.output<typeof experimentConfigSchema>;

/** The Judge-LS protocol's raw options as the config spreads them over its keys. */
export function protocolOptionsOf(
  cfg: Pick<ExperimentConfig, 'options' | 'transform' | 'tieProbes' | 'limit'>,
): Record<string, unknown> {
  const raw: Record<string, unknown> = { ...(cfg.options ?? {}) };
  if (cfg.transform.languages) raw.languages = cfg.transform.languages;
  if (cfg.tieProbes !== undefined) raw.tieProbes = cfg.tieProbes;
  if (cfg.limit !== undefined) raw.limit = cfg.limit;
  return raw;
}
export type JudgeConfig = ExperimentConfig['judges'][number];

function keyPath(path: PropertyKey[]): string {
  return path.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    '',
  );
}

/** Validates a parsed config; every problem names its key (`judges[1].provider: …`). */
export function parseExperimentConfig(raw: unknown, file = 'config'): ExperimentConfig {
  // Before zod: its recursion overflows on deep nesting, and its records drop "__proto__" keys.
  const structural = structuralProblems(raw, file, keyPath);
  if (structural) throw structural;
  const r = experimentConfigSchema.safeParse(raw);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => {
    // Unknown keys are reported on the parent object; name each one.
    const keys = i.code === 'unrecognized_keys' ? i.keys : [undefined];
    return keys.map((k) => {
      const field = keyPath(k === undefined ? i.path : [...i.path, k]) || '(top level)';
      return { file, field, message: i.code === 'unrecognized_keys' ? 'unknown key' : i.message };
    });
  });
  const flat = issues.flat();
  const first = flat[0];
  throw new AppError(
    'invalid_input',
    `${file}: ${flat.length === 1 ? '' : `${flat.length} problems, first: `}${first.field}: ${first.message}`,
    flat,
  );
}

/** Reads and validates a config file; a relative dataset path is taken relative to the file. */
export function loadExperimentConfig(path: string): { config: ExperimentConfig } {
  const raw = readConfigText(path);
  const config = parseExperimentConfig(raw, path);
  // A relative dataset path means relative to the config file, not to wherever the CLI runs.
  if (typeof config.dataset === 'string' && existsSync(resolve(dirname(path), config.dataset))) {
    config.dataset = resolve(dirname(path), config.dataset);
  }
  return { config };
}
