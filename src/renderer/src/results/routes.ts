/** Where the results pages can send the user; the app's router turns these into URLs. */
export type ResultsRoute =
  | { name: 'results'; experimentId: number; excludeFlagged?: boolean }
  | { name: 'flips'; experimentId: number; query: Record<string, string> };

export type Navigate = (route: ResultsRoute) => void;
