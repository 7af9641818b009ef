import { setTimeout as sleep } from 'node:timers/promises';
import type { ProviderConfig } from '../config';
import { ProviderError } from '../errors';
import { parseStructured } from '../structured';
import { estimateInputTokens } from '../tokens';
import type { ChatAdapter, ChatRequestSpec, ProviderResponse, Usage } from '../types';
import { simulatedAnswer, unparseableText } from './answers';
import { mulberry32 } from '../../../shared/random';
import { firstAsk, plantedFlipRate, withPlantedFlip } from './planted-flip';
import { plantedLanguageRate, plantedLanguageVerdict } from './planted-language';
import { plantedLeanRate, plantedLeanVerdict } from './planted-lean';
import { plantedMixing, plantedMixingVerdict } from './planted-mixing';
import { plantedLengthRate, plantedLengthScore } from './planted-length';
import { withPlantedBias } from './planted-bias';
import { plantedQualityNoise, plantedQualityScore } from './planted-quality';
import { seedOf } from './random';
import { faithfulTwin, isPlantedUnfaithful, plantedUnfaithfulRate, unfaithful } from './planted-unfaithful';

/** Mean answer time when the config sets none: long enough that progress is visible. */
export const DEFAULT_SIMULATED_LATENCY_MS = 300;
/** Share of answers that are not the JSON asked for (the engine re-asks, then records a failure). */
export const UNPARSEABLE_RATE = 0.015;

/**
 * The canonical text of a request: what seeds its answer, so equal requests get equal answers. A
 * repeat (sample > 0) is a draw of its own; the first ask seeds as it always did.
 */
function requestSeed(spec: ChatRequestSpec, attempt: number): number {
  return seedOf(
    JSON.stringify([
      spec.model,
      spec.system ?? '',
      spec.messages,
      spec.response?.name ?? null,
      spec.temperature,
    ]),
    String(attempt),
    ...(spec.sample ? [`sample ${spec.sample}`] : []),
  );
}

/**
 * The built-in `simulated` provider: no network, no key. It answers every request kind from
 * the request alone, deterministically (a re-ask of an unparseable answer is the next draw,
 * as a real model's retry is), after a seeded latency. Rate limits are the engine's (lane
 * defaults in SIMULATED_LIMITS), as for any provider.
 */
export class SimulatedChatAdapter implements ChatAdapter {
  /** Sends per request so far, so a re-ask gets a fresh (but reproducible) answer. */
  private readonly attempts = new Map<string, number>();

  constructor(private readonly cfg: ProviderConfig) {}

  async send(asked: ChatRequestSpec, opts: { signal?: AbortSignal } = {}): Promise<ProviderResponse> {
    // A `-unfaithful<NN>` translator: every draw as its faithful twin's, then NN % of its
    // translations get their two responses swapped (planted-unfaithful.ts).
    const unfaithfulRate = plantedUnfaithfulRate(asked.model);
    const spec = unfaithfulRate === null ? asked : faithfulTwin(asked);
    const id = JSON.stringify([
      spec.model,
      spec.system,
      spec.messages,
      spec.response?.name ?? null,
      ...(spec.sample ? [spec.sample] : []),
    ]);
    const attempt = this.attempts.get(id) ?? 0;
    this.attempts.set(id, attempt + 1);
    const rng = mulberry32(requestSeed(spec, attempt));
    const mean = this.cfg.latencyMs ?? DEFAULT_SIMULATED_LATENCY_MS;
    try {
      if (mean > 0) await sleep(Math.round(mean * (0.4 + 1.2 * rng())), undefined, { signal: opts.signal });
    } catch {
      throw new ProviderError('cancelled', 'The simulated call was cancelled.');
    }
    const headers = new Headers({ 'x-judge-lab-simulated': 'true' });
    const broken = rng() < UNPARSEABLE_RATE;
    const flip = plantedFlipRate(spec.model);
    // A `-flip<NN>` model: every ask starts from its first ask's answer and flips it with NN %.
    // A `-first<NN>` model: no position bias of its own, a first-position lean on NN % of items.
    // A `-mix<NN>` model: flips against English that grow with the mixing ratio shown (planted-mixing.ts).
    // A `-lang<NN>` model: one answer in every language, the other in a translation on NN % of items.
    // A `-long<NN>` model: the middle score, a point more for a longer variant on NN % of responses.
    // A `-quality<NN>` model: each response's planted quality, a uniform score with NN % (planted-quality.ts).
    const knob =
      plantedMixing(spec.model) !== null
        ? plantedMixingVerdict(spec, rng)
        : plantedLeanRate(spec.model) !== null
          ? plantedLeanVerdict(spec, rng)
          : plantedLanguageRate(spec.model) !== null
            ? plantedLanguageVerdict(spec, rng)
            : plantedLengthRate(spec.model) !== null
              ? plantedLengthScore(spec, rng)
              : plantedQualityNoise(spec.model) !== null
                ? plantedQualityScore(spec, rng)
                : null;
    const answer =
      knob !== null
        ? knob
        : flip === null
          ? simulatedAnswer(spec, rng)
          : withPlantedFlip(
              spec,
              simulatedAnswer(firstAsk(spec), mulberry32(requestSeed(firstAsk(spec), 0))),
              flip,
              rng,
            );
    // A `-bias-<probe><NN>` model: NN % of the calls a probe detects moved its way (planted-bias.ts).
    const biased = withPlantedBias(spec, answer);
    const planted =
      unfaithfulRate !== null && isPlantedUnfaithful(asked, unfaithfulRate)
        ? unfaithful(asked, biased)
        : biased;
    const text = broken
      ? unparseableText(rng)
      : typeof planted === 'string'
        ? planted
        : JSON.stringify(planted);
    const usage: Usage = {
      inputTokens: estimateInputTokens(asked),
      // About four characters a token for Latin text, one for Chinese: a rough but stable count.
      outputTokens: Math.max(1, Math.round((text.length + 3 * (text.match(/[^ -~\s]/g) ?? []).length) / 4)),
      cachedInputTokens: 0,
    };
    if (typeof planted === 'string' && !broken) return { result: { text, json: planted, usage }, headers };
    const json = parseStructured(spec.response, { text }, usage, headers);
    return { result: { text, json, usage }, headers };
  }
}
