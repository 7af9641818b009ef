// Crafted study bundles for the fuzz suites (issue 40 items 1 and 13): zip bombs that lie about
// their size or declare gigabytes, entries beyond the limits, overlapping entries, names that climb
// out, duplicates, truncation, wrong hashes and CRCs, flipped bytes. Seeded, so every run crafts
// the same ones; the core's test (test/paper/bundle-hostile.test.ts) and the web door's
// (test/doors/serve-hostile-payloads.test.ts) feed the same cases.
import { craftZip, deflated, zerosDeflated, type CraftedEntry } from './zip-craft';

const MiB = 1024 * 1024;
const utf8 = (s: string) => new TextEncoder().encode(s);

/** The honest entries of a bundle's files, deflated, in their order. */
export const honest = (f: Record<string, Uint8Array>): CraftedEntry[] =>
  Object.entries(f).map(([n, b]) => deflated(n, b));

/** A small seeded generator (mulberry32): the same crafted bundles on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Crafted = { zip: Uint8Array; expect?: RegExp; mayPass?: boolean };

/**
 * The crafted kinds, each a function of a seeded random source and the honest bundle's entries;
 * `files` are that bundle's contents (a wrong hash changes one of them).
 */
export function craftedKinds(
  files: Record<string, Uint8Array>,
): Record<string, (r: () => number, base: CraftedEntry[]) => Crafted> {
  return {
    // A size that lies: a few megabytes of deflate unpacking to up to 6 GiB, declared as the
    // entry's real (small) size.
    bombLies: (r, base) => {
      const e = [...base];
      const j = Math.floor(r() * e.length);
      e[j] = { ...e[j], data: zerosDeflated(64 + Math.floor(r() * 6080)) };
      return { zip: craftZip(e), expect: /unpacks to more than the .* declares for it/ };
    },
    // An honest declaration above the entry limit: refused before one byte is unpacked.
    bombDeclared: (r, base) => {
      const mib = 257 + Math.floor(r() * 3800);
      const bomb = { name: 'export/bomb.bin', data: zerosDeflated(4), method: 8, size: mib * MiB, crc: 0 };
      return { zip: craftZip([...base, bomb]), expect: /above the limit of 256 MiB for one entry/ };
    },
    // Entries each under the entry limit whose sum is above the total.
    bombTotal: (r, base) => {
      const n = 5 + Math.floor(r() * 20);
      const bombs = Array.from({ length: n }, (_, k) => ({
        name: `export/part-${k}.bin`,
        data: zerosDeflated(1),
        method: 8,
        size: 250 * MiB,
        crc: 0,
      }));
      return {
        zip: craftZip([...base, ...bombs]),
        expect: /above the limit of 1 GiB for all entries together/,
      };
    },
    // Many directory entries over one entry's data (how 42 KB unpack to petabytes).
    shared: (r, base) => {
      const j = Math.floor(r() * base.length);
      const copies = Array.from({ length: 2 + Math.floor(r() * 50) }, (_, k) => ({
        ...base[j],
        name: `export/copy-${k}.json`,
        sharesDataOf: j,
      }));
      return { zip: craftZip([...base, ...copies]), expect: /two names for one entry|overlap/ };
    },
    traversal: (r, base) => {
      const names = [
        '../evil.json',
        '/etc/cron.d/x',
        'export/../../x.json',
        'C:\\x.json',
        'export\\x.json',
        'a/./b',
        'x//y',
        '',
      ];
      const e = [...base];
      const j = Math.floor(r() * e.length);
      e[j] = { ...e[j], name: names[Math.floor(r() * names.length)] };
      return {
        zip: craftZip(e),
        expect: /refused: (an absolute name|a "\.\." in its name|a backslash|an empty|an empty or "\." part)/,
      };
    },
    duplicate: (r, base) => {
      const j = Math.floor(r() * base.length);
      const twin = r() < 0.5 ? base[j] : deflated(base[j].name, utf8('{"other":"content"}'));
      const e = [...base];
      e.splice(Math.floor(r() * (e.length + 1)), 0, twin);
      return { zip: craftZip(e), expect: /appears twice in the zip/ };
    },
    truncated: (r, base) => {
      const zip = craftZip(base);
      return { zip: zip.subarray(0, Math.floor(r() * (zip.length - 1))) };
    },
    wrongHash: (r, base) => {
      const e = [...base];
      const names = e.map((x) => x.name).filter((n) => n !== 'bundle.json');
      const pick = names[Math.floor(r() * names.length)];
      const j = e.findIndex((x) => x.name === pick);
      const content = Buffer.from(files[e[j].name]);
      const at = Math.floor(r() * content.length);
      content[at] = content[at] === 0x30 ? 0x31 : 0x30;
      e[j] = deflated(e[j].name, content);
      return { zip: craftZip(e), expect: /content does not match its SHA-256 in bundle\.json/ };
    },
    wrongCrc: (r, base) => {
      const e = [...base];
      const j = Math.floor(r() * e.length);
      e[j] = { ...e[j], crc: (e[j].crc ^ (1 + Math.floor(r() * 0xfffffe))) >>> 0 };
      return { zip: craftZip(e), expect: /CRC-32 does not match/ };
    },
    method: (r, base) => {
      const e = [...base];
      const j = Math.floor(r() * e.length);
      e[j] =
        r() < 0.5
          ? { ...e[j], method: [1, 6, 9, 12, 14, 93, 99][Math.floor(r() * 7)] }
          : { ...e[j], flags: 1 };
      return { zip: craftZip(e), expect: /compression method \d+; only stored|encrypted/ };
    },
    // A byte changed anywhere: refused, or (a byte no check covers, such as a header's time) verified.
    flipped: (r, base) => {
      const zip = Buffer.from(craftZip(base));
      const at = Math.floor(r() * zip.length);
      zip[at] ^= 1 + Math.floor(r() * 255);
      return { zip, mayPass: true };
    },
  };
}
