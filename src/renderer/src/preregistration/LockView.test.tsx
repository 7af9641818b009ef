// Issue 40 item 5: a lock the core read as tampered (its content no longer hashes to its SHA-256)
// is said at the top of the lock, in EN and 中文; an intact one says nothing of it.
import { act, cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import type { PreregistrationLock, PreregistrationView } from '../../../shared/paper/preregistration';
import '../i18n';
import { LockView } from './LockView';

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

const lock = (tampered: boolean): PreregistrationLock => ({
  version: 1,
  plan: {
    confirmatory: ['a'],
    alpha: 0.05,
    correction: 'holm',
    exclusions: 'none',
    stopping: 'all',
  } as PreregistrationLock['plan'],
  snapshot: {
    protocol: 'p',
    config: {},
    items: 4,
    itemsSha256: 'ab'.repeat(32),
    judges: [],
    answersAtLock: 0,
    editedAtLock: 0,
    comparisons: [],
  } as unknown as PreregistrationLock['snapshot'],
  reason: null,
  lockedAt: '2026-01-01T10:00:00.000Z',
  sha256: '1'.repeat(64),
  ...(tampered ? { tampered: true as const } : {}),
});

const viewOf = (l: PreregistrationLock): PreregistrationView & { active: PreregistrationLock } => ({
  experimentId: 1,
  locks: [l],
  active: l,
  deviations: [],
  comparisons: [],
  afterData: null,
  answersStored: 0,
});

describe('LockView and a tampered lock', () => {
  it('says TAMPERED with the version, in EN and 中文', async () => {
    render(<LockView view={viewOf(lock(true))} labels={new Map()} />);
    expect(screen.getByTestId('prereg-tampered').textContent).toMatch(/^TAMPERED: lock version 1 /);
    await act(() => i18next.changeLanguage('zh'));
    expect(screen.getByTestId('prereg-tampered').textContent).toMatch(/^已被篡改：第 1 版/);
  });

  it('says nothing of it for an intact lock', () => {
    render(<LockView view={viewOf(lock(false))} labels={new Map()} />);
    expect(screen.queryByTestId('prereg-tampered')).toBeNull();
  });
});
