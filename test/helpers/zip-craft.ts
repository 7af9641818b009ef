// Zips written byte by byte, so a test can make one lie: declared sizes and CRCs that are not the
// data's, names a zip library would refuse to write (duplicates, `..`, absolute), entries whose
// data overlap, and deflate streams that unpack to gigabytes from a few megabytes.
import { constants, crc32, deflateRawSync } from 'node:zlib';

export interface CraftedEntry {
  name: string;
  /** The bytes as they sit in the zip (already compressed for method 8). */
  data: Buffer;
  method: number;
  /** What the headers declare; default: what the data really are. */
  size: number;
  crc: number;
  flags?: number;
  /** A name for the local header other than the directory's. */
  localName?: string;
  /** Point the directory entry at the data of the entry with this index instead of its own. */
  sharesDataOf?: number;
  /** Point the directory entry at this offset of the zip (its own header is not written). */
  localOffset?: number;
}

/** An honest deflated entry of `content`. */
export function deflated(name: string, content: Uint8Array): CraftedEntry {
  const buf = Buffer.from(content);
  return { name, data: deflateRawSync(buf), method: 8, size: buf.length, crc: crc32(buf) };
}

/**
 * A raw deflate stream of `mib` MiB of zeros, about 1 KB per MiB: independently compressed,
 * sync-flushed pieces of 1 MiB (no back-reference crosses a piece, so they can be chained) and an
 * empty final block.
 */
export function zerosDeflated(mib: number): Buffer {
  const piece = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_SYNC_FLUSH });
  const pieces: Buffer[] = [];
  for (let i = 0; i < mib; i++) pieces.push(piece);
  pieces.push(deflateRawSync(Buffer.alloc(0)));
  return Buffer.concat(pieces);
}

/** The zip of `entries`, in order: local headers and data, central directory, end record. */
export function craftZip(entries: CraftedEntry[]): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const e of entries) {
    offsets.push(at);
    if (e.sharesDataOf !== undefined || e.localOffset !== undefined) continue;
    const name = Buffer.from(e.localName ?? e.name, 'utf8');
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE((e.flags ?? 0) | 0x800, 6);
    h.writeUInt16LE(e.method, 8);
    h.writeUInt32LE(e.crc >>> 0, 14);
    h.writeUInt32LE(e.data.length, 18);
    h.writeUInt32LE(e.size >>> 0, 22);
    h.writeUInt16LE(name.length, 26);
    parts.push(h, name, e.data);
    at += 30 + name.length + e.data.length;
  }
  const cdStart = at;
  entries.forEach((e, i) => {
    const name = Buffer.from(e.name, 'utf8');
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE((e.flags ?? 0) | 0x800, 8);
    c.writeUInt16LE(e.method, 10);
    c.writeUInt32LE(e.crc >>> 0, 16);
    const own = e.sharesDataOf === undefined ? e : entries[e.sharesDataOf];
    c.writeUInt32LE(own.data.length, 20);
    c.writeUInt32LE(e.size >>> 0, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(e.localOffset ?? offsets[e.sharesDataOf ?? i], 42);
    parts.push(c, name);
    at += 46 + name.length;
  });
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(at - cdStart, 12);
  end.writeUInt32LE(cdStart, 16);
  parts.push(end);
  return Buffer.concat(parts);
}
