// Reads a zip someone else made (a study bundle, the workbook inside one) without trusting it:
// the central directory is read first and checked whole (count, names, declared sizes, where each
// entry lies) before one byte is inflated, and each entry is inflated with its declared size as a
// hard ceiling, so a size that lies stops the inflation instead of filling memory. What is refused:
// zip64 and encrypted entries (nothing the app writes uses them), methods other than stored and
// deflate, duplicate names, names that climb out (`..`, absolute, `\`, drive letters), entries whose
// data overlap (the trick of the smallest bombs) or lie outside the file, a local header that
// disagrees with the directory, and a CRC that does not match.
import { crc32, inflateRawSync } from 'node:zlib';
import {
  fillRefusal,
  ZIP_PROBLEM_WHY,
  type RefusalParams,
  type ZipProblemKey,
} from '../../shared/paper/bundle-refusals';
import { formatBytes } from './input-limits';

export interface ZipLimits {
  /** Entries of the directory, folders included. */
  entries: number;
  /** One entry, inflated. */
  entryBytes: number;
  /** All entries together, inflated. */
  totalBytes: number;
}

/** Why a zip was refused (a stable key and its params); `entry` names the entry at fault, if one is. */
export class ZipProblem extends Error {
  constructor(
    readonly entry: string | undefined,
    readonly key: ZipProblemKey,
    readonly params: RefusalParams = {},
  ) {
    super(fillRefusal(ZIP_PROBLEM_WHY[key], params));
    this.name = 'ZipProblem';
  }
}

interface DirEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  /** Where the entry's data start and end (after its local header). */
  start: number;
  end: number;
}

const SIG_EOCD = 0x06054b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const ZIP64_MARK = 0xffffffff;

/** Why an entry name may not be written out or looked up as a path; undefined when it is fine. */
export function entryNameProblem(name: string): ZipProblemKey | undefined {
  if (name === '') return 'bundle.nameEmpty';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'bundle.nameControl';
  if (name.includes('\\')) return 'bundle.nameBackslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'bundle.nameAbsolute';
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((p) => p === '..')) return 'bundle.nameClimbs';
  if (parts.some((p) => p === '.' || p === '')) return 'bundle.nameDot';
  return undefined;
}

function findEnd(b: Buffer): number {
  const lowest = Math.max(0, b.length - 22 - 0xffff);
  for (let i = b.length - 22; i >= lowest; i--) {
    if (b.readUInt32LE(i) === SIG_EOCD && i + 22 + b.readUInt16LE(i + 20) <= b.length) return i;
  }
  throw new ZipProblem(undefined, 'bundle.noEnd');
}

/** The central directory, checked whole against the limits and the file's own bytes. */
function directory(b: Buffer, limits: ZipLimits): DirEntry[] {
  const eocd = findEnd(b);
  if (eocd >= 20 && b.readUInt32LE(eocd - 20) === SIG_ZIP64_LOCATOR)
    throw new ZipProblem(undefined, 'bundle.zip64');
  const disk = b.readUInt16LE(eocd + 4);
  const cdDisk = b.readUInt16LE(eocd + 6);
  const onDisk = b.readUInt16LE(eocd + 8);
  const count = b.readUInt16LE(eocd + 10);
  const cdSize = b.readUInt32LE(eocd + 12);
  const cdOffset = b.readUInt32LE(eocd + 16);
  if (disk !== 0 || cdDisk !== 0 || onDisk !== count) throw new ZipProblem(undefined, 'bundle.multipart');
  if (count === 0xffff || cdSize === ZIP64_MARK || cdOffset === ZIP64_MARK)
    throw new ZipProblem(undefined, 'bundle.zip64');
  if (count > limits.entries)
    throw new ZipProblem(undefined, 'bundle.tooManyEntries', {
      count: count.toLocaleString('en-US'),
      limit: limits.entries.toLocaleString('en-US'),
    });
  if (cdOffset + cdSize > eocd) throw new ZipProblem(undefined, 'bundle.directoryOutside');
  const entries: DirEntry[] = [];
  const names = new Set<string>();
  let total = 0;
  let at = cdOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > cdOffset + cdSize || b.readUInt32LE(at) !== SIG_CENTRAL)
      throw new ZipProblem(undefined, 'bundle.directoryDamaged', { n: n + 1, count });
    const flags = b.readUInt16LE(at + 8);
    const nameLen = b.readUInt16LE(at + 28);
    const next = at + 46 + nameLen + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
    if (next > cdOffset + cdSize)
      throw new ZipProblem(undefined, 'bundle.directoryDamaged', { n: n + 1, count });
    const rawName = b.subarray(at + 46, at + 46 + nameLen);
    let name: string;
    try {
      // Bit 11: the name is UTF-8; otherwise it is read byte by byte (IBM 437's ASCII part).
      name =
        flags & 0x800
          ? new TextDecoder('utf-8', { fatal: true }).decode(rawName)
          : rawName.toString('latin1');
    } catch {
      throw new ZipProblem(rawName.toString('latin1'), 'bundle.nameNotUtf8');
    }
    const problem = entryNameProblem(name);
    if (problem) throw new ZipProblem(name, problem);
    if (names.has(name)) throw new ZipProblem(name, 'bundle.duplicate');
    names.add(name);
    const e: DirEntry = {
      name,
      flags,
      method: b.readUInt16LE(at + 10),
      crc: b.readUInt32LE(at + 16),
      compressedSize: b.readUInt32LE(at + 20),
      size: b.readUInt32LE(at + 24),
      localOffset: b.readUInt32LE(at + 42),
      start: 0,
      end: 0,
    };
    if (e.compressedSize === ZIP64_MARK || e.size === ZIP64_MARK || e.localOffset === ZIP64_MARK)
      throw new ZipProblem(name, 'bundle.zip64Entry');
    if (flags & 0x1) throw new ZipProblem(name, 'bundle.encrypted');
    if (e.method !== 0 && e.method !== 8) throw new ZipProblem(name, 'bundle.method', { method: e.method });
    if (e.size > limits.entryBytes)
      throw new ZipProblem(name, 'bundle.entryTooLarge', {
        size: formatBytes(e.size),
        limit: formatBytes(limits.entryBytes),
      });
    total += e.size;
    if (total > limits.totalBytes)
      throw new ZipProblem(name, 'bundle.totalTooLarge', {
        size: formatBytes(total),
        limit: formatBytes(limits.totalBytes),
      });
    entries.push(e);
    at = next;
  }
  for (const e of entries) {
    const h = e.localOffset;
    if (h + 30 > cdOffset || b.readUInt32LE(h) !== SIG_LOCAL)
      throw new ZipProblem(e.name, 'bundle.localDamaged');
    const localName = b.subarray(h + 30, h + 30 + b.readUInt16LE(h + 26));
    if (!localName.equals(Buffer.from(e.name, e.flags & 0x800 ? 'utf8' : 'latin1')))
      throw new ZipProblem(e.name, 'bundle.localName', { name: localName.toString('latin1') });
    if (b.readUInt16LE(h + 8) !== e.method) throw new ZipProblem(e.name, 'bundle.localMethod');
    e.start = h + 30 + localName.length + b.readUInt16LE(h + 28);
    e.end = e.start + e.compressedSize;
    if (e.end > cdOffset) throw new ZipProblem(e.name, 'bundle.dataPastEnd');
  }
  // Two directory entries over the same bytes: how a few kilobytes unpack to petabytes.
  const byStart = [...entries].sort((x, y) => x.localOffset - y.localOffset);
  for (let i = 1; i < byStart.length; i++)
    if (byStart[i].localOffset < byStart[i - 1].end)
      throw new ZipProblem(byStart[i].name, 'bundle.overlap', { other: byStart[i - 1].name });
  return entries;
}

function inflate(b: Buffer, e: DirEntry): Buffer {
  const data = b.subarray(e.start, e.end);
  let out: Buffer;
  if (e.method === 0) {
    if (e.compressedSize !== e.size) throw new ZipProblem(e.name, 'bundle.storedSizes');
    out = data;
  } else {
    try {
      // One byte above the declared size: a stream that goes past it is stopped right there.
      out = inflateRawSync(data, { maxOutputLength: e.size + 1 });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw code === 'ERR_BUFFER_TOO_LARGE'
        ? new ZipProblem(e.name, 'bundle.inflatesPast', { size: formatBytes(e.size) })
        : new ZipProblem(e.name, 'bundle.unreadableData', { detail: (err as Error).message });
    }
  }
  if (out.length !== e.size)
    throw new ZipProblem(e.name, 'bundle.sizeMismatch', {
      actual: formatBytes(out.length),
      size: formatBytes(e.size),
    });
  if (crc32(out) !== e.crc) throw new ZipProblem(e.name, 'bundle.crc');
  return out;
}

/**
 * Every file entry of the zip by name, in the directory's order (folders, `name/`, are checked
 * and left out). Throws ZipProblem, naming the entry where one is at fault.
 */
export function readZip(bytes: Uint8Array, limits: ZipLimits): Map<string, Uint8Array> {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let entries: DirEntry[];
  try {
    entries = directory(b, limits);
  } catch (err) {
    if (err instanceof ZipProblem) throw err;
    // A read past the end that a check above missed: still the file's fault, not the app's.
    throw new ZipProblem(undefined, 'bundle.damaged', { detail: (err as Error).message });
  }
  const files = new Map<string, Uint8Array>();
  for (const e of entries) {
    if (e.name.endsWith('/')) {
      if (e.size !== 0) throw new ZipProblem(e.name, 'bundle.folderContent');
      continue;
    }
    files.set(e.name, inflate(b, e));
  }
  return files;
}
