// A protocol's per-item rows as they cross the doors (API `experiments.protocolView`,
// `protocolEdit`). The generic contract names no protocol, so a row is opaque there: each
// protocol declares its own row types next to a typed reader (`rowReader`), and its pages and
// tests read rows through that reader instead of casting at every call. The reader also checks
// that the rows carry the protocol's fields, so rows of another protocol's experiment fail with
// a message naming the field, not as `undefined` somewhere in a page.

/** One row of a protocol's view; its shape belongs to the experiment's protocol. */
export type ProtocolRow = object;

export interface RowReader<V extends object, J extends object> {
  variants(rows: unknown): V[];
  variant(row: unknown): V;
  judgments(rows: unknown): J[];
}

/**
 * The typed reader of one protocol's rows. `fields` lists, per view, fields every row of that
 * view has (checked on each row); a protocol without a judgments view leaves that list empty
 * and its reader refuses judgment rows.
 */
export function rowReader<V extends object, J extends object = never>(
  protocol: string,
  fields: { variants: readonly (keyof V & string)[]; judgments?: readonly (keyof J & string)[] },
): RowReader<V, J> {
  function read<T>(view: 'variants' | 'judgments', rows: unknown): T[] {
    const wanted: readonly string[] | undefined = fields[view];
    if (!wanted || wanted.length === 0) throw new Error(`${protocol} has no ${view} view`);
    if (!Array.isArray(rows)) throw new Error(`${view} is not a list of ${protocol} rows`);
    rows.forEach((row: unknown, i) => {
      if (typeof row !== 'object' || row === null) throw new Error(`${view}[${i}] is not a ${protocol} row`);
      const missing = wanted.find((f) => !(f in row));
      if (missing !== undefined) {
        throw new Error(`${view}[${i}] is not a ${protocol} row: field "${missing}" is missing`);
      }
    });
    return rows as T[];
  }
  return {
    variants: (rows) => read<V>('variants', rows),
    variant: (row) => read<V>('variants', [row])[0],
    judgments: (rows) => read<J>('judgments', rows),
  };
}
