// Types for the build step's helper (plain JS: the build config loads it before anything is built).
export function asciiOnlyJs(source: string): string;
