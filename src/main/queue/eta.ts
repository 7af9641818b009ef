// Time left, lane by lane: each endpoint+model works through its own queue at its own rate, so
// the slowest lane decides. The estimate before a run and the run's first ETA use the same
// formula (time at the configured limits); once a lane has answered, its observed rate counts,
// never faster than its RPM limit allows.

/**
 * How long a call takes to answer, for lanes without an RPM limit (their pace is concurrency over
 * answer time): time to the first token plus the answer's tokens at a decoding speed. Typical is
 * a hosted model's (about 0.5 s, 80 tokens/s), so a 150-token verdict takes about 2.4 s; fast and
 * slow bound what servers do (a small model on a GPU, a large one on a busy or CPU-only server).
 * It was a flat 5 s a call, which said ~65 s for a run of 18 s (issue 38).
 */
export interface Latency {
  firstTokenSeconds: number;
  outputTokensPerSecond: number;
}
export const TYPICAL_LATENCY: Latency = { firstTokenSeconds: 0.5, outputTokensPerSecond: 80 };
export const FAST_LATENCY: Latency = { firstTokenSeconds: 0.2, outputTokensPerSecond: 200 };
export const SLOW_LATENCY: Latency = { firstTokenSeconds: 1.5, outputTokensPerSecond: 25 };
/** Output tokens of a call when the plan does not say (a verdict with its reason). */
export const ASSUMED_OUTPUT_TOKENS = 150;

export interface EtaLimits {
  rpm?: number;
  tpm?: number;
  concurrency: number;
}

/**
 * Seconds for `calls` calls of `tokens` estimated tokens in all (`outputTokens` of them answers)
 * at the configured limits; without an RPM limit, concurrency and the answers' time decide.
 */
export function secondsAtLimits(
  calls: number,
  tokens: number,
  limits: EtaLimits,
  outputTokens = calls * ASSUMED_OUTPUT_TOKENS,
  latency: Latency = TYPICAL_LATENCY,
): number {
  const byRpm = limits.rpm ? (calls / limits.rpm) * 60 : 0;
  const byTpm = limits.tpm ? (tokens / limits.tpm) * 60 : 0;
  const answering = calls * latency.firstTokenSeconds + outputTokens / latency.outputTokensPerSecond;
  const byConcurrency = limits.rpm ? 0 : answering / Math.max(1, limits.concurrency);
  return Math.max(byRpm, byTpm, byConcurrency);
}

/**
 * Seconds until one lane has worked off `remaining` calls: at its observed completion rate
 * (calls per second, capped at the RPM limit), or at its limits before it has a rate.
 */
export function laneEtaSeconds(remaining: number, observedPerSec: number, limits: EtaLimits): number {
  if (remaining <= 0) return 0;
  if (observedPerSec <= 0) return secondsAtLimits(remaining, 0, limits);
  const rate = limits.rpm ? Math.min(observedPerSec, limits.rpm / 60) : observedPerSec;
  return remaining / rate;
}

/** One lane's share of a plan: its calls and estimated tokens per stage, in stage order. */
export interface LaneLoad {
  limits: EtaLimits;
  /** Calls, tokens and answer tokens per stage name (stages the lane has no calls for are absent). */
  stages: Map<string, { calls: number; tokens: number; outputTokens?: number }>;
}

/**
 * Seconds a pipelined plan takes at the configured limits (issue 14 item 2, DESIGN.md §4 "Estimate"):
 *
 *   lane(l)    = secondsAtLimits(all calls and tokens of lane l)            lanes run side by side
 *   finish(s1) = max over lanes l of secondsAtLimits(stage-s1 calls of l)
 *   finish(s)  = max( finish(p) + tail(s),                                  p = the last earlier stage with calls
 *                     max over lanes l with stage-s calls of secondsAtLimits(calls of stages ≤ s on l) )
 *   tail(s)    = secondsAtLimits(ceil(calls(s) / calls(p)) calls on s's slowest lane)
 *   time       = max( max over lanes of lane(l), finish(last stage) )
 *
 * A lane is an endpoint+model: its RPM/TPM budget is shared by every stage that calls it, and
 * lanes do not wait for each other, so the busiest lane is a lower bound. A stage's calls may
 * need an earlier stage's answers (a verdict on a translation), so the last of them cannot go
 * out before the earlier stage's last answer, then that input's dependent calls (taken as the
 * stage's calls per input of the earlier stage: the plan does not say which task needs which)
 * still have to be sent at their lane's rate. A lane with an RPM limit is taken as rate bound; one
 * without is answer bound (`latency`, per answer token); the run's ETA corrects both with observed
 * rates.
 */
export function pipelineSeconds(
  lanes: Iterable<LaneLoad>,
  stageOrder: readonly string[],
  latency: Latency = TYPICAL_LATENCY,
): number {
  const all = [...lanes];
  const out = (s: { calls: number; outputTokens?: number }) =>
    s.outputTokens ?? s.calls * ASSUMED_OUTPUT_TOKENS;
  const at = (s: { calls: number; tokens: number; outputTokens: number }, limits: EtaLimits) =>
    secondsAtLimits(s.calls, s.tokens, limits, s.outputTokens, latency);
  const sum = (l: LaneLoad, upTo: number) => {
    let calls = 0;
    let tokens = 0;
    let outputTokens = 0;
    for (const name of stageOrder.slice(0, upTo + 1)) {
      const s = l.stages.get(name);
      if (s) {
        calls += s.calls;
        tokens += s.tokens;
        outputTokens += out(s);
      }
    }
    return { calls, tokens, outputTokens };
  };
  const callsOf = (name: string) => all.reduce((n, l) => n + (l.stages.get(name)?.calls ?? 0), 0);
  let busiest = 0;
  for (const l of all) busiest = Math.max(busiest, at(sum(l, stageOrder.length - 1), l.limits));
  let finish = 0;
  let prev: string | null = null;
  stageOrder.forEach((name, i) => {
    const calls = callsOf(name);
    if (calls === 0) return;
    const using = all.filter((l) => l.stages.has(name));
    let own = 0;
    for (const l of using) own = Math.max(own, at(sum(l, i), l.limits));
    let chained = 0;
    if (prev !== null) {
      const perInput = Math.ceil(calls / callsOf(prev));
      const tail = Math.max(
        ...using.map((l) => {
          const s = l.stages.get(name)!;
          const share = perInput / s.calls;
          return at({ calls: perInput, tokens: s.tokens * share, outputTokens: out(s) * share }, l.limits);
        }),
      );
      chained = finish + tail;
    }
    finish = Math.max(own, chained);
    prev = name;
  });
  return Math.max(busiest, finish);
}
