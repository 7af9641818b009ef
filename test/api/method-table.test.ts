// One definition per API method (issue 34): the table in src/shared/api/methods.ts holds each
// method's parameter schema and result type; callers' and handlers' types are derived from it.
// The runtime half: every method named by the doors has exactly one table entry and answers
// through Core.call (its handler and its strict schema). The type-level half is checked by tsc
// (tsconfig.json includes test/): each `@ts-expect-error` below must be an error, so a type
// checker that stopped refusing a disagreeing handler or schema fails `npm run typecheck`.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  METHOD_NAMES,
  type ApiClient,
  type HandlerOf,
  type HandlersOf,
  type ParamsOf,
  type ParsedParamsOf,
  type ResultOf,
} from '../../src/shared/api';
import { API_METHODS, coreMethods, judgeMethods } from '../../src/shared/api/methods';
import { annotationMethods } from '../../src/shared/api/annotation-methods';
import type { Agree, AssertTrue } from '../../src/shared/api/define';
import type { CompareSide } from '../../src/shared/compare';
import type { DatasetSummary } from '../../src/shared/domain';
import { Core } from '../../src/main/facade/core';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { tempDir } from '../helpers/tmp';

describe('the API method table', () => {
  it('defines every method the doors know exactly once', () => {
    const parts = [coreMethods, annotationMethods, judgeMethods].map((p) => Object.keys(p));
    const all = parts.flat();
    const twice = all.filter((m, i) => all.indexOf(m) !== i);
    expect(twice, 'methods defined in two parts').toEqual([]);
    expect([...all].sort()).toEqual([...METHOD_NAMES].sort());
    expect(Object.keys(API_METHODS).sort()).toEqual([...METHOD_NAMES].sort());
    expect(new Set(METHOD_NAMES).size).toBe(METHOD_NAMES.length);
    for (const m of METHOD_NAMES) expect(API_METHODS[m].params, m).toBeInstanceOf(z.ZodType);
  });
});

describe('every method through Core.call', () => {
  let core: Core;
  let cleanup: () => void;
  beforeAll(() => {
    const t = tempDir();
    cleanup = t.cleanup;
    core = new Core({ dataDir: t.dir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  });
  afterAll(async () => {
    await core?.shutdown();
    cleanup?.();
  });

  it('has a handler and a strict schema: an unknown key is refused by the schema, naming the method', async () => {
    for (const m of METHOD_NAMES) {
      await expect(core.call(m, { notAParameter: 1 }), m).rejects.toMatchObject({
        code: 'invalid_params',
        message: expect.stringMatching(new RegExp(`^Invalid parameters for ${m.replace('.', '\\.')}: `)),
      });
    }
  });

  it('refuses a method the table does not define', async () => {
    await expect(core.call('datasets.format' as never, undefined)).rejects.toMatchObject({
      code: 'invalid_params',
      message: 'Unknown method "datasets.format"',
    });
  });
});

describe('types derived from the table (checked by tsc)', () => {
  it('gives callers the schema input and handlers the schema output', () => {
    expectTypeOf<ParamsOf<'datasets.delete'>>().toEqualTypeOf<{ datasetId: number }>();
    expectTypeOf<ResultOf<'datasets.rename'>>().toEqualTypeOf<DatasetSummary>();
    expectTypeOf<ParamsOf<'experiments.compare'>['a']>().toEqualTypeOf<{
      experimentId: number;
      judge?: string | undefined;
    }>();
    expectTypeOf<ParsedParamsOf<'annotation.label'>['value']>().toEqualTypeOf<
      number | string | null | undefined
    >();
    // Never called: the calls are here for tsc. A method without parameters takes no argument.
    const client = null as ApiClient | null;
    if (client) {
      void client.call('app.info');
      // @ts-expect-error datasets.delete needs its parameters
      void client.call('datasets.delete');
      // @ts-expect-error the schema says datasetId is a number
      void client.call('datasets.delete', { datasetId: '3' });
    }
  });

  it('refuses a handler whose parameters or result disagree with the table', () => {
    const fine: HandlerOf<'datasets.delete'> = ({ datasetId }) => ({ deleted: datasetId > 0 });
    // @ts-expect-error the handler declares datasetId a string; the schema lets a number through
    const wrongParams: HandlerOf<'datasets.delete'> = (p: { datasetId: string }) => ({ deleted: !!p });
    // @ts-expect-error the table says datasets.delete answers { deleted: boolean }
    const wrongResult: HandlerOf<'datasets.delete'> = () => ({ deleted: 'yes' });
    const group: HandlersOf<'keys.delete' | 'keys.status'> = {
      'keys.status': () => ({ managed: false, stored: [], warning: null }),
      'keys.delete': () => ({ stored: [] }),
    };
    // @ts-expect-error a group's handler table lacks keys.status
    const missing: HandlersOf<'keys.delete' | 'keys.status'> = { 'keys.delete': () => ({ stored: [] }) };
    expect([fine, wrongParams, wrongResult, group, missing].length).toBe(5);
  });

  it('refuses a schema that disagrees with the type declared where the parameters are used', () => {
    const side = z.strictObject({ experimentId: z.number(), judge: z.string().optional() });
    const loose = z.strictObject({ experimentId: z.string(), judge: z.string().optional() });
    type Same = AssertTrue<Agree<z.output<typeof side>, CompareSide>>;
    // @ts-expect-error experimentId is a number in CompareSide
    type Differs = AssertTrue<Agree<z.output<typeof loose>, CompareSide>>;
    // @ts-expect-error an extra key makes the schema and the declared type disagree too
    type Wider = AssertTrue<Agree<z.output<typeof side> & { extra: 1 }, CompareSide>>;
    expectTypeOf<[Same, Differs, Wider]>().not.toBeNever();
    // The disagreement tsc sees is the one a caller meets at run time.
    expect(side.safeParse({ experimentId: 1 }).success).toBe(true);
    expect(loose.safeParse({ experimentId: 1 }).success).toBe(false);
  });
});
