import { describe, expect, it } from 'vitest';
import { parseRewrite } from './parse';

describe('bias-probes answers', () => {
  it('reads a rewrite, and NO_FILLER as "no shorter variant"', () => {
    expect(parseRewrite('  text  ')).toEqual({ ok: true, value: { text: 'text' } });
    expect(parseRewrite('NO_FILLER')).toEqual({ ok: true, value: { text: null, none: true } });
    expect(parseRewrite({})).toMatchObject({ ok: false });
  });
});
