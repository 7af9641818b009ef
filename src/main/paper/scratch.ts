// A scratch folder under the data folder's exports/ (where exports already stage their files),
// removed whatever happens: bundles are written and verified in one.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';

export async function inScratch<T>(
  dataDir: string,
  prefix: string,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  const root = join(dataDir, 'exports');
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(join(root, prefix));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
