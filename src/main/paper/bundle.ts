// The study bundle's two entry points for the core (issue 24): write one from a stored
// experiment, and verify one offline. Each works in its own scratch folder under the data
// folder's exports/ and leaves nothing behind.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleVerifyReport } from '../../shared/paper/bundle';
import type { Database } from '../store/db';
import { openBundle } from './bundle-read';
import { verifyBundle } from './bundle-verify';
import { writeBundle } from './bundle-write';

async function inScratch<T>(dataDir: string, prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const root = join(dataDir, 'exports');
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(join(root, prefix));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function exportBundle(
  db: Database,
  dataDir: string,
  experimentId: number,
): Promise<{ fileName: string; mime: string; contentBase64: string }> {
  return inScratch(dataDir, '.bundle-', async (dir) => {
    const b = await writeBundle(db, experimentId, dir);
    return {
      fileName: b.fileName,
      mime: 'application/zip',
      contentBase64: Buffer.from(b.bytes).toString('base64'),
    };
  });
}

/** Refuses a bundle that does not match its hashes (naming the entry) before anything runs. */
export function verifyBundleBytes(
  dataDir: string,
  fileName: string,
  bytes: Uint8Array,
): Promise<BundleVerifyReport> {
  const bundle = openBundle(fileName, bytes);
  return inScratch(dataDir, '.verify-', (dir) => verifyBundle(bundle, dir));
}
