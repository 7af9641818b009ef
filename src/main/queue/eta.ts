// Time left, lane by lane: each endpoint+model works through its own queue at its own rate, so
// the slowest lane decides. The estimate before a run and the run's first ETA use the same
// formula (time at the configured limits); once a lane has answered, its observed rate counts,
// never faster than its RPM limit allows.

/** Without an RPM limit, assume each of `concurrency` slots finishes a call every 5 s. */
export const ASSUMED_SECONDS_PER_CALL = 5;

export interface EtaLimits {
  rpm?: number;
  tpm?: number;
  concurrency: number;
}

/** Seconds for `calls` calls of `tokens` estimated tokens in all at the configured limits. */
export function secondsAtLimits(calls: number, tokens: number, limits: EtaLimits): number {
  const byRpm = limits.rpm ? (calls / limits.rpm) * 60 : 0;
  const byTpm = limits.tpm ? (tokens / limits.tpm) * 60 : 0;
  const byConcurrency = limits.rpm ? 0 : (calls * ASSUMED_SECONDS_PER_CALL) / Math.max(1, limits.concurrency);
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
  /** Calls and tokens per stage name (stages the lane has no calls for are absent). */
  stages: Map<string, { calls: number; tokens: number }>;
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
 * still have to be sent at their lane's rate. Latency is not modelled (a run at the limits is
 * rate bound, not latency bound); the run's ETA corrects for slower lanes with observed rates.
 */
export function pipelineSeconds(lanes: Iterable<LaneLoad>, stageOrder: readonly string[]): number {
  const all = [...lanes];
  const sum = (l: LaneLoad, upTo: number) => {
    let calls = 0;
    let tokens = 0;
    for (const name of stageOrder.slice(0, upTo + 1)) {
      const s = l.stages.get(name);
      if (s) {
        calls += s.calls;
        tokens += s.tokens;
      }
    }
    return { calls, tokens };
  };
  const callsOf = (name: string) => all.reduce((n, l) => n + (l.stages.get(name)?.calls ?? 0), 0);
  let busiest = 0;
  for (const l of all) {
    const { calls, tokens } = sum(l, stageOrder.length - 1);
    busiest = Math.max(busiest, secondsAtLimits(calls, tokens, l.limits));
  }
  let finish = 0;
  let prev: string | null = null;
  stageOrder.forEach((name, i) => {
    const calls = callsOf(name);
    if (calls === 0) return;
    const using = all.filter((l) => l.stages.has(name));
    let own = 0;
    for (const l of using) {
      const s = sum(l, i);
      own = Math.max(own, secondsAtLimits(s.calls, s.tokens, l.limits));
    }
    let chained = 0;
    if (prev !== null) {
      const perInput = Math.ceil(calls / callsOf(prev));
      const tail = Math.max(
        ...using.map((l) => {
          const s = l.stages.get(name)!;
          return secondsAtLimits(perInput, (s.tokens / s.calls) * perInput, l.limits);
        }),
      );
      chained = finish + tail;
    }
    finish = Math.max(own, chained);
    prev = name;
  });
  return Math.max(busiest, finish);
}
