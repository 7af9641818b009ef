// Types for the packaged-app smoke test (plain JS: the desktop workflow runs it with bare Node).
export function findArtifact(dist: string, suffix: string): string;
export function findFile(dir: string, name: string, depth?: number): string | undefined;
export function main(platform?: NodeJS.Platform, dist?: string): number;
