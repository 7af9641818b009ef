// The bias-probes config keys (README "Bias probes") and resolved options.
import { z } from 'zod';
import type { Mode, Probe } from '../../../shared/protocols/bias-probes/types';
import type { BiasProbeOptions } from '../../../shared/protocols/bias-probes/probe-types';
import {
  biasProbeIds,
  biasProbes,
  defaultProbeIds,
} from '../../../shared/protocols/bias-probes/probe-registry';
import { judgeEntrySchema, refineJudgeLabels, type ConfigIssue } from '../../judging/config';
import type { BaseConfig } from '../plugin';

const modelSchema = judgeEntrySchema;

const band = z
  .tuple([z.number().positive(), z.number().positive()])
  .refine(([lo, hi]) => lo < hi, { message: 'a band is [low, high] with low < high' });

export const biasConfigShape = {
  judges: z.array(modelSchema).min(1),
  /** The model that writes the longer, shorter and Markdown variants (the `rewrite` stage). */
  rewriter: modelSchema
    .omit({ label: true })
    .extend({ label: z.string().min(1).max(100).optional() })
    .optional(),
  mode: z.enum(['pointwise', 'pairwise']).optional(),
  scale: z.union([z.literal(5), z.literal(10)]).optional(),
  /** Replaces the default rubric in the pointwise prompt. */
  rubric: z.string().trim().min(1).max(4000).optional(),
  // Any registered probe (probes/index.ts and those a test registers), read when a config is checked.
  probes: z
    .array(
      z.string().superRefine((p, ctx) => {
        if (!biasProbeIds().includes(p))
          ctx.addIssue({
            code: 'custom',
            message: `unknown probe ${JSON.stringify(p)}: expected one of ${biasProbeIds().join(', ')}`,
          });
      }),
    )
    .min(1)
    .optional(),
  /** Word-count ratio variant / original a longer variant must fall in (default [1.3, 1.7]). */
  lengthBand: band.optional(),
  /** The same for a shorter variant (default [0.4, 0.9]). */
  shorterBand: band.optional(),
  /** Make shorter variants where the response has filler (default true). */
  shorter: z.boolean().optional(),
  /** Markdown vs plain: word counts may differ by at most this fraction (default 0.15). */
  formatTolerance: z.number().min(0).max(1).optional(),
  /**
   * The noise floor: the unchanged response (the original, or the original pair in each order)
   * scored a second time (sample 1), so each effect is read beside the judge's own repeat change.
   */
  noiseFloor: z.boolean().optional(),
  /** Paraphrases of the judging instructions the rubric probe makes (1–5, default 3). */
  paraphrases: z.number().int().min(1).max(5).optional(),
  /**
   * A probe's own options, under its id (`BiasProbe.options`); each key and value is checked
   * against the probe's declaration in `refineBiasConfig`, where the registry is known.
   */
  probeOptions: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
};

export type ModelEntry = z.output<typeof modelSchema>;
export type RewriterEntry = Omit<ModelEntry, 'label'> & { label?: string };

/** The study's keys beside those every study's config has (`BaseConfig`). */
export interface BiasConfig extends BaseConfig, Record<string, unknown> {
  judges: ModelEntry[];
  rewriter?: RewriterEntry;
  mode?: Mode;
  scale?: 5 | 10;
  rubric?: string;
  probes?: Probe[];
  lengthBand?: [number, number];
  shorterBand?: [number, number];
  shorter?: boolean;
  formatTolerance?: number;
  noiseFloor?: boolean;
  paraphrases?: number;
  /** A probe's own options by probe id (`BiasProbe.options`). */
  probeOptions?: Record<string, Record<string, unknown>>;
}

/** The options every probe reads (probe-types.ts). */
export type BiasOptions = BiasProbeOptions;

export const DEFAULT_LENGTH_BAND: [number, number] = [1.3, 1.7];
export const DEFAULT_SHORTER_BAND: [number, number] = [0.4, 0.9];
export const DEFAULT_FORMAT_TOLERANCE = 0.15;
export const DEFAULT_PARAPHRASES = 3;

/**
 * The selected probes' own options, each given value (already checked) or its default; null when
 * no selected probe declares any, so the options (and stored configs) of the others are as before.
 */
export function resolveProbeOptions(config: BiasConfig): Record<string, Record<string, unknown>> | null {
  // The probes a config without `probes` runs: an opt-in probe's options are not filled in for it
  // (the check then refuses them as options of a probe not selected).
  const probes = config.probes ?? defaultProbeIds();
  const byProbe: Record<string, Record<string, unknown>> = config.probeOptions ?? {};
  const declaring = biasProbes().filter((p) => probes.includes(p.id) && p.options?.length);
  if (!declaring.length) return null;
  return Object.fromEntries(
    declaring.map((p) => {
      const given = byProbe[p.id] ?? {};
      return [
        p.id,
        Object.fromEntries(
          p.options!.map((o) => [
            o.key,
            Object.hasOwn(given, o.key) ? o.schema.parse(given[o.key]) : o.default,
          ]),
        ),
      ];
    }),
  );
}

/** The stored config: every selected probe's options with their defaults (what the manifest shows). */
export function sealBiasConfig(config: BiasConfig): BiasConfig {
  const resolved = resolveProbeOptions(config);
  return resolved ? { ...config, probeOptions: { ...(config.probeOptions ?? {}), ...resolved } } : config;
}

export function resolveBiasOptions(config: BiasConfig): BiasOptions {
  const probes = config.probes ?? defaultProbeIds();
  const probeOptions = resolveProbeOptions(config);
  return {
    mode: config.mode ?? 'pointwise',
    scale: config.scale ?? 5,
    rubric: config.rubric ?? null,
    // Always in registry order (position, length, format, then any registered after them).
    probes: biasProbeIds().filter((p) => probes.includes(p)),
    lengthBand: config.lengthBand ?? DEFAULT_LENGTH_BAND,
    shorterBand: config.shorterBand ?? DEFAULT_SHORTER_BAND,
    shorter: config.shorter ?? true,
    formatTolerance: config.formatTolerance ?? DEFAULT_FORMAT_TOLERANCE,
    noiseFloor: config.noiseFloor ?? false,
    paraphrases: config.paraphrases ?? DEFAULT_PARAPHRASES,
    ...(probeOptions ? { probeOptions } : {}),
  };
}

/** The rewriter's label in usage rows and progress. */
export const REWRITER_LABEL = 'rewriter';

export function refineBiasConfig(cfg: BiasConfig, issue: ConfigIssue): void {
  refineJudgeLabels(cfg.judges, issue);
  const probes = cfg.probes ?? defaultProbeIds();
  // The selected probes whose conditions the rewriter makes, named in registry order: naming
  // every such probe sent people looking for probes they never chose.
  const rewriting = biasProbes()
    .filter((p) => probes.includes(p.id) && p.conditions.some((c) => 'rewrite' in c.text || c.instructions))
    .map((p) => p.id);
  if (rewriting.length && !cfg.rewriter) {
    const names =
      rewriting.length === 1
        ? `the ${rewriting[0]} probe needs`
        : `the ${rewriting.slice(0, -1).join(', ')} and ${rewriting.at(-1)} probes need`;
    issue(
      ['rewriter'],
      cfg.probes
        ? `${names} a "rewriter" model (or leave ${rewriting.length === 1 ? 'it' : 'them'} out of "probes")`
        : `${names} a "rewriter" model: they run when "probes" is not given (or list only probes that need none, e.g. "probes": ["position"])`,
    );
  }
  // A probe with no effect in the mode (score_order is pointwise only) would run and report nothing.
  const mode = cfg.mode ?? 'pointwise';
  for (const p of biasProbes())
    if (probes.includes(p.id) && !p.effects.some((e) => e.modes.includes(mode)))
      issue(['probes'], `the ${p.id} probe measures nothing in ${mode} mode (leave it out of "probes")`);
  refineProbeOptions(cfg, probes, issue);
  if (cfg.lengthBand && cfg.lengthBand[0] <= 1)
    issue(['lengthBand'], 'a longer variant band must lie above 1 (e.g. [1.3, 1.7])');
  if (cfg.shorterBand && cfg.shorterBand[1] >= 1)
    issue(['shorterBand'], 'a shorter variant band must lie below 1 (e.g. [0.4, 0.9])');
}

/** Each `probeOptions` entry names a selected probe, and each key an option it declares, valid. */
function refineProbeOptions(cfg: BiasConfig, probes: readonly string[], issue: ConfigIssue): void {
  for (const [id, given] of Object.entries(cfg.probeOptions ?? {})) {
    const probe = biasProbes().find((p) => p.id === id);
    if (!probe) {
      issue(
        ['probeOptions', id],
        `unknown probe ${JSON.stringify(id)}: expected one of ${biasProbeIds().join(', ')}`,
      );
      continue;
    }
    if (!probes.includes(id)) {
      issue(['probeOptions', id], `options of probe "${id}", which "probes" does not select`);
      continue;
    }
    const declared = probe.options ?? [];
    for (const [key, value] of Object.entries(given)) {
      const option = declared.find((o) => o.key === key);
      if (!option) {
        issue(
          ['probeOptions', id, key],
          `unknown option ${JSON.stringify(key)} of probe "${id}": ` +
            (declared.length
              ? `expected one of ${declared.map((o) => o.key).join(', ')}`
              : 'it declares none'),
        );
        continue;
      }
      const r = option.schema.safeParse(value);
      if (!r.success)
        for (const i of r.error.issues)
          issue(
            ['probeOptions', id, key, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
            i.message,
          );
    }
  }
}
