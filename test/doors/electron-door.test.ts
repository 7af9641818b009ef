import { describe, expect, it } from 'vitest';
import { makeSenderCheck } from '../../src/main/doors/electron-door';

describe('IPC sender check', () => {
  const PAGE = 'file:///opt/judge-lab/out/renderer/index.html';
  const from = (url: string) => ({ senderFrame: { url } }) as never;

  it('trusts the packaged page, whatever its route', () => {
    const check = makeSenderCheck(PAGE);
    expect(check(from(PAGE))).toBe(true);
    expect(check(from(`${PAGE}#/experiments/3`))).toBe(true);
    expect(check(from('http://localhost:5173/'))).toBe(false);
  });

  it('does not trust any other file:// page, nor the page with a query or another path', () => {
    const check = makeSenderCheck(PAGE);
    expect(check(from('file:///home/me/Downloads/evil.html'))).toBe(false);
    expect(check(from('file:///opt/judge-lab/out/renderer/other.html'))).toBe(false);
    expect(check(from('file:///opt/judge-lab/out/renderer/index.html/../../../tmp/x.html'))).toBe(false);
    expect(check(from(`${PAGE}?evil=1`))).toBe(false);
    expect(check(from('file://evil-host/opt/judge-lab/out/renderer/index.html'))).toBe(false);
  });

  it('trusts the dev server origin during development, not a look-alike host', () => {
    const check = makeSenderCheck(PAGE, 'http://localhost:5173');
    expect(check({ senderFrame: { url: 'http://localhost:5173/#/datasets' } } as never)).toBe(true);
    expect(check({ senderFrame: { url: 'http://localhost:5173.evil.example/' } } as never)).toBe(false);
  });
});
