// The experiment config of DESIGN.md section 7: one JSON file that says what to run.
// Strict throughout: a misspelt key is an error naming it, never a silently ignored setting.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import type { InputIssue } from '../../shared/domain';
import { AppError } from '../base/errors';
import { readConfigText, structuralProblems } from '../import/config-file';
import { folderNameProblem } from './names';
import { getProtocol, listProtocols } from '../protocols/registry';
import type { AnyProtocol, BaseConfig } from '../protocols/plugin';
import { preregistrationConfigSchema } from '../paper/preregistration-schema';
import {
  endpointId,
  isBatchMode,
  isRecorded,
  isSimulated,
  KEY_NAME_RULE,
  providerConfigSchema,
} from '../providers/config';
import { seedSchema } from '../../shared/random';

/** USD per million tokens; an entry replaces the shipped price of that model as a whole. */
const priceSchema = z.strictObject({
  input: z.number().min(0),
  cachedInput: z.number().min(0).optional(),
  cacheWrite: z.number().min(0).optional(),
  output: z.number().min(0),
  batchInput: z.number().min(0).optional(),
  batchOutput: z.number().min(0).optional(),
});

/** The keys every protocol's config has (DESIGN.md section 7). */
const baseShape = {
  name: z.string().superRefine((name, ctx) => {
    const problem = folderNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** A dataset file (relative to the config file), the name of an imported dataset, or its id. */
  dataset: z.union([z.string().min(1), z.number().int().positive()]),
  providers: z.record(z.string().min(1), providerConfigSchema),
  limit: z.number().int().positive().optional(),
  /** "first" (default): the first `limit` items; "random": a sample of `limit` items, fixed by `seed`. */
  sample: z.enum(['first', 'random']).optional(),
  seed: seedSchema.optional(),
  /** Only items of these subsets, before `limit`. */
  subsets: z.array(z.string()).min(1).optional(),
  /** Re-asks of an unparseable answer before it is recorded failed. */
  maxParseRetries: z.number().int().min(0).max(10).optional(),
  /** Early warning: a judge whose first N answers are mostly unusable is paused (default 20; 0: off). */
  earlyWarningAnswers: z.number().int().min(0).max(10_000).optional(),
  /** USD per million tokens, overriding the shipped price table per model. */
  prices: z.record(z.string().min(1), priceSchema).optional(),
  /** The analysis plan, locked when the experiment is created (issue 24 part 2; paper/preregistration.ts). */
  preregistration: preregistrationConfigSchema.optional(),
};

/** A validated config: the shared keys, plus the protocol's own (typed by its plug-in). */
export type ExperimentConfig = BaseConfig & Record<string, unknown>;

/** The schema of one protocol's config: shared keys + its keys, strict, with its checks. */
function schemaFor(protocol: AnyProtocol) {
  return z
    .strictObject({ ...baseShape, protocol: z.literal(protocol.id), ...protocol.configShape })
    .superRefine((cfg, ctx) => {
      const config = cfg as unknown as ExperimentConfig;
      const known = Object.keys(config.providers);
      const issue = (path: (string | number)[], message: string) =>
        ctx.addIssue({ code: 'custom', path, message });
      // Every model the protocol calls names a configured provider.
      for (const use of protocol.models(config)) {
        if (!Object.hasOwn(config.providers, use.provider)) {
          issue(
            use.path ?? [],
            `no provider named "${use.provider}" in "providers" (have: ${known.join(', ') || 'none'})`,
          );
        }
      }
      // Simulated answers next to real ones would make every number a blend of both.
      const simulated = Object.entries(config.providers).filter(([, p]) => isSimulated(p));
      const real = Object.entries(config.providers).filter(([, p]) => !isSimulated(p));
      // Recorded answers next to live ones: the experiment would call the network after all.
      const recorded = Object.entries(config.providers).filter(([, p]) => isRecorded(p));
      const live = real.filter(([, p]) => !isRecorded(p));
      if (recorded.length && (live.length || simulated.length)) {
        const [name, p] = live[0] ?? simulated[0];
        issue(
          ['providers', name, 'kind'],
          `"${p.kind}" cannot be mixed with the recorded provider "${recorded[0][0]}" in one experiment: a recorded experiment answers every call from files, without the network`,
        );
      } else if (simulated.length && real.length) {
        issue(
          ['providers', real[0][0], 'kind'],
          `"${real[0][1].kind}" cannot be mixed with the simulated provider "${simulated[0][0]}" in one experiment: use only simulated providers (a demo) or only real ones`,
        );
      }
      tierConflict(config.providers, issue);
      if (config.sample === 'random' && config.limit === undefined)
        issue(['sample'], '"random" needs "limit": how many items to draw');
      // One seed per experiment: a protocol may use it too (e.g. to pick items or answers
      // deterministically), so it is an error only where nothing would read it.
      if (
        config.seed !== undefined &&
        config.sample !== 'random' &&
        !Object.hasOwn(protocol.configShape, 'seed')
      )
        issue(['seed'], 'a seed only applies with "sample": "random"');
      protocol.refineConfig?.(config, issue);
    });
}

/**
 * The engine has one lane per endpoint + model, and a lane sends with the settings of the first
 * live provider on its endpoint: a flex provider beside a standard one on the same server would
 * silently send both at one tier. Batch-mode twins are exempt (they never send through the lane's
 * tier choice: flex is refused with batch mode). Refused, naming the later provider's field.
 */
function tierConflict(
  providers: ExperimentConfig['providers'],
  issue: (path: (string | number)[], message: string) => void,
): void {
  const firstOn = new Map<string, [string, string]>();
  for (const [name, p] of Object.entries(providers)) {
    if (isBatchMode(p) || isRecorded(p)) continue;
    const tier = p.serviceTier ?? 'default';
    const endpoint = endpointId(p, name);
    const first = firstOn.get(endpoint);
    if (!first) firstOn.set(endpoint, [name, tier]);
    else if (first[1] !== tier)
      issue(
        ['providers', name, 'serviceTier'],
        `"${tier}" differs from "${first[1]}" of provider "${first[0]}" on the same server (${endpoint}): calls to one server are sent with the settings of its first provider entry, so flex and standard cannot be mixed on it; give both the same "serviceTier"`,
      );
  }
}

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
  const protocolId =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? (raw as Record<string, unknown>).protocol
      : undefined;
  const known = listProtocols().map((p) => p.id);
  if (typeof protocolId !== 'string' || !known.includes(protocolId)) {
    const message =
      protocolId === undefined
        ? `required: one of ${known.map((k) => `"${k}"`).join(', ')}`
        : `unknown protocol ${JSON.stringify(protocolId)} (have: ${known.join(', ')})`;
    throw new AppError('invalid_input', `${file}: protocol: ${message}`, [
      { file, field: 'protocol', message },
    ]);
  }
  const r = schemaFor(getProtocol(protocolId)).safeParse(raw);
  if (r.success) return r.data as unknown as ExperimentConfig;
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

/** A variable name the key rule accepts, standing in for a stored name it refuses (never read). */
const STAND_IN_KEY_NAME = 'STORED_CONFIG_STAND_IN_KEY';
/** The field of a provider's key name (provider names may contain dots). */
const KEY_FIELD = /^providers\.(.+)\.apiKeyEnv$/;

/**
 * A config read back from the store. Configs stored by an older release may name an `apiKeyEnv`
 * that the key rule added since refuses: they still load (so results and exports keep working),
 * with the stored name kept, and `problems` names each such field; running is refused until it
 * is fixed (load.ts, assertRunnable). Any other problem refuses the config as before.
 */
export function parseStoredConfig(
  raw: unknown,
  file: string,
): { config: ExperimentConfig; problems: InputIssue[] } {
  try {
    return { config: parseExperimentConfig(raw, file), problems: [] };
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'invalid_input') throw err;
    const isKeyName = (i: InputIssue) => KEY_FIELD.test(i.field ?? '') && i.message === KEY_NAME_RULE;
    const problems = err.issues.filter(isKeyName);
    const others = err.issues.filter((i) => !isKeyName(i));
    if (!problems.length) throw err;
    if (others.length)
      throw new AppError(
        'invalid_input',
        `${file}: ${others.length === 1 ? '' : `${others.length} problems, first: `}${others[0].field}: ${others[0].message}`,
        others,
      );
    // Parse with a stand-in for each refused name, then put the stored names back.
    const stored = raw as { providers: Record<string, { apiKeyEnv?: string }> };
    const names = problems.map((p) => KEY_FIELD.exec(p.field!)![1]);
    const copy = {
      ...stored,
      providers: Object.fromEntries(
        Object.entries(stored.providers).map(([name, p]) => [
          name,
          names.includes(name) ? { ...p, apiKeyEnv: STAND_IN_KEY_NAME } : p,
        ]),
      ),
    };
    const config = parseExperimentConfig(copy, file);
    for (const name of names) config.providers[name].apiKeyEnv = stored.providers[name].apiKeyEnv;
    return { config, problems };
  }
}

/** Reads and validates a config file; a relative dataset path is taken relative to the file. */
export function loadExperimentConfig(path: string): { config: ExperimentConfig } {
  const raw = readConfigText(path);
  const config = parseExperimentConfig(raw, path);
  // A relative dataset path means relative to the config file, not to wherever the CLI runs.
  if (typeof config.dataset === 'string' && existsSync(resolve(dirname(path), config.dataset))) {
    config.dataset = resolve(dirname(path), config.dataset);
  }
  // A recorded provider's file, likewise (it need not exist yet: `template recorded` writes it).
  for (const p of Object.values(config.providers))
    if (p.kind === 'recorded' && p.file !== undefined) p.file = resolve(dirname(path), p.file);
  return { config };
}
