/** Where the results pages can send the user; the app's router turns these into URLs. */
export type ResultsRoute =
  | { name: 'results'; experimentId: number; excludeFlagged?: boolean; verifiedOnly?: boolean }
  | { name: 'experiment'; experimentId: number }
  /** A protocol's own page (e.g. `flips`), see src/renderer/src/protocols. */
  | { name: 'experiment-page'; experimentId: number; page: string; query: Record<string, string> };

export type Navigate = (route: ResultsRoute) => void;
