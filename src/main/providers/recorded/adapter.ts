// The `recorded` provider: answers come from the user's file, never from the network. The
// engine sends it requests as to any provider (so parsing, re-asks, the ledger and usage work
// unchanged); which slot a request fills is told by `slotOf`, from the experiment's plan.
import { ProviderError } from '../errors';
import { parseStructured } from '../structured';
import type { ChatAdapter, ChatRequestSpec, ProviderResponse } from '../types';
import type { RecordedAnswers } from './file';
import { slotId, slotText } from './slots';

export class RecordedChatAdapter implements ChatAdapter {
  /** Slots answered so far: a re-ask (an unusable answer) reads the same text again. */
  private readonly asked = new Set<string>();

  constructor(
    private readonly answers: RecordedAnswers,
    /** The slots a request fills (their columns; none when no planned task sends it). */
    private readonly slotOf: (spec: ChatRequestSpec) => [string, string][][],
  ) {}

  async send(spec: ChatRequestSpec): Promise<ProviderResponse> {
    const slots = this.slotOf(spec);
    if (!slots.length)
      throw new ProviderError(
        'not_recorded',
        `no planned task of this experiment sends this request to ${spec.model}`,
      );
    // Slots that ask the very same question share one request (as live, one answer serves them):
    // whichever of them the file answers. Rows that answer them differently (one judge's edited)
    // cannot both be what this request answered: refused rather than one judge given the other's.
    const rows = slots.map((f) => this.answers.byId.get(slotId(f))).filter((r) => r !== undefined);
    const row = rows[0];
    const other = rows.find((r) => r.answer !== row?.answer);
    if (row && other)
      throw new ProviderError(
        'not_recorded',
        `${this.answers.file}: lines ${row.line} and ${other.line} answer one request differently (${slotText(row.fields)}; ${slotText(other.fields)}): ` +
          'slots asking the same question of one provider entry share its answer; give each judge its own provider entry to record different answers',
      );
    if (!row)
      throw new ProviderError(
        'not_recorded',
        `no recorded answer in ${this.answers.file} for ${slotText(slots[0])}`,
      );
    if (row.model !== spec.model)
      throw new ProviderError(
        'not_recorded',
        `${this.answers.file}:${row.line}: field "model": the answer is from ${row.model}, the experiment asks ${spec.model}`,
      );
    const headers = new Headers({ 'x-judge-lab-recorded': 'true' });
    const text = row.answer;
    // The usage columns are what the answer cost where it was made, every ask included: counted once.
    const usage = this.asked.has(row.id)
      ? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }
      : row.usage;
    this.asked.add(row.id);
    const json = parseStructured(spec.response, { text }, usage, headers);
    return { result: { text, json, usage }, headers };
  }
}
