// The keyless rewriter's tone rewrites (a warmer and a harsher framing of a text), shared by the
// simulated provider that writes them and by a study's planted-effect detector that finds them.

/**
 * The keyless (simulated) rewriter's tone rewrite: the response framed by an opening and, from a
 * middling length on, a closing of that tone, sized so the ratio stays inside `TONE_BAND` (by the
 * response's word count: under 16, under 60, longer). Shared, so the
 * simulated rewriter writes them and a probe's `detect` knows the warm ones.
 */
export const SIMULATED_TONE: Record<'warmer' | 'harsher', readonly { open: string; close: string }[]> = {
  warmer: [
    { open: 'Gladly!', close: '' },
    { open: 'Happy to help!', close: 'Hope this helps!' },
    {
      open: 'So glad you asked, and happy to help with this!',
      close: 'I hope this is useful, and best of luck with it!',
    },
  ],
  harsher: [
    { open: 'Obviously.', close: '' },
    { open: 'Frankly, this is basic.', close: 'Keep up.' },
    {
      open: 'Frankly, this should not need explaining, but here it is.',
      close: 'Read it carefully next time, because I will not repeat it.',
    },
  ],
};

/** The simulated tone rewrite of a text (see `SIMULATED_TONE`). */
export function simulatedTone(tone: 'warmer' | 'harsher', text: string): string {
  const words = text.split(/\s+/).filter(Boolean).length;
  const frame = SIMULATED_TONE[tone][words < 16 ? 0 : words < 60 ? 1 : 2];
  return [frame.open, text.trim(), frame.close].filter(Boolean).join(' ');
}
