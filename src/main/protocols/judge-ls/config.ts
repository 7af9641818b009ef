// Judge-LS options: what an experiment may change, with the published protocol's defaults.
import { z } from 'zod';
import { templateSchema } from '../../judging/template';
import { DEFAULT_TEMPLATES, TEMPLATE_PLACEHOLDERS, type JudgeLsTemplates } from './prompts';
import { probeTargets, targetLanguageProblem } from '../../../shared/protocols/judge-ls/languages';
import { seedSchema } from '../../../shared/random';

/**
 * A target language: ZH, LS, a code of the catalogue (shared/protocols/judge-ls/languages.ts:
 * `ar`, `hi`, `te`, `es`, …), its code-switched pair with English (`LS:ar`), or that pair at a
 * mixing ratio (`LS:ar@25`: about 25 % of the content words in Arabic).
 */
export const targetLanguageSchema = z.string().superRefine((value, ctx) => {
  const problem = targetLanguageProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Back-translation check defaults: chrF (0–100) of source vs back-translation below this flags. */
export const DEFAULT_VERIFY_MIN_CHRF = 40;

/** Audit defaults (DESIGN.md section 5, from the published protocol's reference scripts). */
export const DEFAULT_AUDIT_THRESHOLDS = {
  /** English needs at least this many number tokens before "variant has none" is a flag. */
  minNumbersForMissing: 2,
  /** Number-token counts differing by at least this much is a flag. */
  numberCountDiff: 3,
  /** Variant/English length ratio (characters) below this is a flag. */
  minLengthRatio: { ZH: 0.1, LS: 0.35 },
};

const ratio = z.number().positive().max(10);

const auditSchema = z.strictObject({
  minNumbersForMissing: z.number().int().min(1).default(DEFAULT_AUDIT_THRESHOLDS.minNumbersForMissing),
  numberCountDiff: z.number().int().min(1).default(DEFAULT_AUDIT_THRESHOLDS.numberCountDiff),
  minLengthRatio: z
    .strictObject({
      ZH: ratio.default(DEFAULT_AUDIT_THRESHOLDS.minLengthRatio.ZH),
      LS: ratio.default(DEFAULT_AUDIT_THRESHOLDS.minLengthRatio.LS),
    })
    .prefault({}),
});

function template(field: keyof typeof TEMPLATE_PLACEHOLDERS) {
  return templateSchema(TEMPLATE_PLACEHOLDERS[field]).default(DEFAULT_TEMPLATES[field]);
}

const templatesSchema = z
  .strictObject({
    transformSystem: template('transformSystem'),
    transformUser: template('transformUser'),
    languageRules: z
      .strictObject({
        ZH: z.string().min(1).default(DEFAULT_TEMPLATES.languageRules.ZH),
        LS: z.string().min(1).default(DEFAULT_TEMPLATES.languageRules.LS),
      })
      .prefault({}),
    judgeSystem: template('judgeSystem'),
    judgeUser: template('judgeUser'),
    tieProbeUser: template('tieProbeUser'),
  })
  .superRefine((t, ctx) => {
    // Without either placeholder the ZH and LS transform requests would be identical.
    const both = t.transformSystem + t.transformUser;
    if (!/\{\{\s*(language_rules|target_language)\s*\}\}/.test(both)) {
      ctx.addIssue({
        code: 'custom',
        path: ['transformSystem'],
        message: 'the transform templates must use {{language_rules}} or {{target_language}}',
      });
    }
  }) satisfies z.ZodType<JudgeLsTemplates, unknown>;

const temperature = z.number().min(0).max(2);
const maxTokens = z.number().int().positive().max(1_000_000);

export const judgeLsOptionsSchema = z
  .strictObject({
    /** Target languages to transform into and judge in (EN is always judged). */
    languages: z
      .array(targetLanguageSchema)
      .min(1)
      .refine((l) => new Set(l).size === l.length, 'languages must not repeat')
      .default(['ZH', 'LS']),
    /**
     * Verified translations (issue 37): each translation back-translated into English by this
     * model; chrF between the English and the back-translation below `minChrf` flags the item for
     * the "verified items only" results. Absent: no back-translation, metrics.json as before.
     */
    verify: z
      .strictObject({
        provider: z.string().min(1),
        model: z.string().min(1),
        minChrf: z.number().min(0).max(100).default(DEFAULT_VERIFY_MIN_CHRF),
        /** Also ask the model whether source and translation say the same (a verdict with its reason). */
        llmVerdict: z.boolean().default(false),
      })
      .optional(),
    /**
     * Two tie probes per item, judge and translated target (ZH, `zh`, `ar`, …: the gold answer in
     * English against its translation, both orders); code-switched targets get none.
     */
    tieProbes: z.boolean().default(true),
    /** Only the first N items (in dataset order). */
    limit: z.number().int().positive().optional(),
    audit: auditSchema.prefault({}),
    templates: templatesSchema.prefault({}),
    judgeTemperature: temperature.default(0),
    judgeMaxOutputTokens: maxTokens.default(1024),
    transformTemperature: temperature.default(0),
    /** Three LLMBar texts in Chinese can run to several thousand tokens. */
    transformMaxOutputTokens: maxTokens.default(8192),
    /**
     * The intervals the tables show: Wilson (verdicts as independent) or the item-clustered
     * bootstrap (an item's orders and languages resampled together). Both are computed.
     */
    ci: z.enum(['wilson', 'cluster-bootstrap']).default('wilson'),
    /**
     * The noise floor: each EN verdict asked a second time (sample 1, same order), so every
     * language flip rate stands beside the judge's own run-to-run flips (DESIGN.md section 5).
     */
    noiseFloor: z.boolean().default(false),
    /** Bootstrap replicates. */
    bootstrapB: z.number().int().min(100).max(100_000).default(2000),
    /** Seeds the bootstrap's resampling (default: the experiment's `seed`, else 1). */
    bootstrapSeed: seedSchema.optional(),
  })
  .superRefine((o, ctx) => {
    if (o.tieProbes && probeTargets(o.languages).length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['tieProbes'],
        message:
          'tie probes compare English with a translation, and every listed language is code-switched: add a translated target (ZH, ar, hi, …) to languages or set tieProbes to false',
      });
    }
  });

export type JudgeLsOptions = z.output<typeof judgeLsOptionsSchema>;
export type JudgeLsOptionsInput = z.input<typeof judgeLsOptionsSchema>;
export type AuditThresholds = JudgeLsOptions['audit'];

/** Parses options, throwing an error that names each bad field. */
export function parseJudgeLsOptions(raw: unknown): JudgeLsOptions {
  const r = judgeLsOptionsSchema.safeParse(raw ?? {});
  if (r.success) return r.data;
  const detail = r.error.issues.map((i) => `${i.path.join('.') || '(options)'}: ${i.message}`).join('; ');
  throw new Error(`Invalid judge-ls options: ${detail}`);
}
