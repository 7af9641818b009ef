import { BaseSequencer, type TestSpecification } from 'vitest/node';

export declare const knownSeconds: Readonly<Record<string, number>>;
export declare function longFirst<T extends { project: string; path: string }>(
  files: readonly T[],
  seconds?: Readonly<Record<string, number>>,
): T[];
export declare class LongFirstSequencer extends BaseSequencer {
  sort(files: TestSpecification[]): Promise<TestSpecification[]>;
}
