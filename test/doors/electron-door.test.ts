import { describe, expect, it } from 'vitest';
import { makeSenderCheck } from '../../src/main/doors/electron-door';

describe('IPC sender check', () => {
  it('trusts the packaged file:// page only', () => {
    const check = makeSenderCheck();
    expect(check({ senderFrame: { url: 'file:///opt/judge-lab/out/renderer/index.html' } } as never)).toBe(
      true,
    );
    expect(check({ senderFrame: { url: 'http://localhost:5173/' } } as never)).toBe(false);
  });

  it('trusts the dev server origin during development, not a look-alike host', () => {
    const check = makeSenderCheck('http://localhost:5173');
    expect(check({ senderFrame: { url: 'http://localhost:5173/#/datasets' } } as never)).toBe(true);
    expect(check({ senderFrame: { url: 'http://localhost:5173.evil.example/' } } as never)).toBe(false);
  });
});
