// Types for the install step, which stays plain JS because it runs before anything is built.
export interface FetchInput {
  packageDir: string;
  staging: string;
  electronVersion: string;
  platform: string;
  arch: string;
  env: NodeJS.ProcessEnv;
}
export interface Fetcher {
  name: string;
  /** Leaves build/Release/better_sqlite3.node in `staging`, or throws why not. */
  make(input: FetchInput): void;
}
export interface EnsureOptions {
  root?: string;
  required?: boolean;
  env?: NodeJS.ProcessEnv;
  platform?: string;
  arch?: string;
  fetchers?: Fetcher[];
}
export type EnsureResult =
  | { status: 'skipped'; reason: string }
  | { status: 'present'; path: string }
  | { status: 'made'; path: string; via: string }
  | { status: 'failed'; path?: string; reason: string };

export function electronBindingPath(
  nodeModulesDir: string,
  betterSqliteVersion: string,
  electronVersion: string,
  platform: string,
  arch: string,
): string;
export function electronBinaryInstalled(electronDir: string): boolean;
export const prebuiltFetcher: Fetcher;
export const sourceFetcher: Fetcher;
export function ensureElectronBinding(options?: EnsureOptions): EnsureResult;
export function main(
  argv?: string[],
  options?: Omit<EnsureOptions, 'required'> & {
    print?: (line: string) => void;
    warn?: (line: string) => void;
  },
): number;
