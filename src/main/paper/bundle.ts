// Verifying a study bundle, for the core (issue 24): opened and checked whole first, then replayed
// in a scratch folder under the data folder's exports/ that is removed afterwards. (Writing one is
// bundle-write.ts's `exportBundle`: the experiments' views call it, and the replay here runs an
// experiment service, so the two stay apart.)
import type { BundleVerifyReport } from '../../shared/paper/bundle';
import { openHandedBundle } from './bundle-read';
import { verifyBundle } from './bundle-verify';
import { inScratch } from './scratch';

/** Refuses a bundle that does not match its hashes (naming the entry) before anything runs. */
export function verifyBundleBytes(
  dataDir: string,
  fileName: string,
  bytes: Uint8Array,
): Promise<BundleVerifyReport> {
  const bundle = openHandedBundle(fileName, bytes);
  return inScratch(dataDir, '.verify-', (dir) => verifyBundle(bundle, dir));
}
