// Every malformed request shape we could think of, sent over raw sockets to a real
// `judge-lab serve` child process: none may end the process, none may be answered with a
// 500 (the last-resort guard firing means a handler has a bug), and no file outside the
// built renderer folder may ever be served.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, ROOT } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

interface RawReply {
  status: number | null;
  headers: Record<string, string>;
  body: Buffer;
}

interface Case {
  name: string;
  /** The bytes sent; `PORT` and `TOKEN` are replaced by the server's. */
  bytes: string | Buffer;
  /** Sent after a 101 answer (WebSocket frames). */
  afterUpgrade?: Buffer;
  /** A status the case must get, when one is clearly right. */
  expect?: number;
}

const RENDERER = join(ROOT, 'out', 'renderer');
const MARKER = `secret-${randomBytes(8).toString('hex')}`;

let child: ChildProcess;
let exitCode: number | null | undefined;
let stderr = '';
let port = 0;
let token = '';
let dataDir = '';
let cleanup: () => void;
const allowedBodies = new Set<string>();

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

function decodeChunked(buf: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at < buf.length) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

function parseReply(raw: Buffer): RawReply {
  const head = raw.indexOf('\r\n\r\n');
  const headText = raw.subarray(0, head < 0 ? raw.length : head).toString('latin1');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(headText);
  const headers: Record<string, string> = {};
  for (const line of headText.split('\r\n').slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = head < 0 ? Buffer.alloc(0) : raw.subarray(head + 4);
  if (headers['transfer-encoding'] === 'chunked') body = decodeChunked(body);
  return { status: m ? Number(m[1]) : null, headers, body };
}

/** Sends raw bytes, returns what came back before the server closed (or 1.5 s passed). */
function sendRaw(bytes: string | Buffer, afterUpgrade?: Buffer): Promise<RawReply> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    let upgraded = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseReply(Buffer.concat(chunks)));
    };
    const timer = setTimeout(finish, 1500);
    socket.on('data', (c) => {
      chunks.push(c);
      if (afterUpgrade && !upgraded && Buffer.concat(chunks).toString('latin1').startsWith('HTTP/1.1 101')) {
        upgraded = true;
        socket.write(afterUpgrade);
      }
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(typeof bytes === 'string' ? fill(bytes) : bytes);
  });
}

const fill = (s: string) => s.replaceAll('PORT', String(port)).replaceAll('TOKEN', token);

const get = (target: string, extra = '') =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n${extra}Connection: close\r\n\r\n`;
const post = (target: string, body: string, extra = '') =>
  `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nAuthorization: Bearer TOKEN\r\n${extra}` +
  `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
const upgrade = (
  target: string,
  extra = 'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n',
) =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${extra}\r\n`;

function cases(): Case[] {
  const secretAbs = join(dataDir, 'secret.txt');
  const enc = (s: string) => encodeURIComponent(s);
  const traversals = [
    '/../../../../../../etc/passwd',
    '/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/%2E%2E%2F%2E%2E%2Fmain%2Fcli.js',
    '/..%5c..%5c..%5c..%5cetc%5cpasswd',
    '/%252e%252e%252f%252e%252e%252fetc%252fpasswd',
    '/..%c0%af..%c0%af..%c0%afetc/passwd',
    '/..%e0%80%af..%e0%80%afetc/passwd',
    '/....//....//....//etc/passwd',
    '/assets/../../main/cli.js',
    '/assets/..%2f..%2fmain%2fcli.js',
    '/%2e%2e/main/cli.js',
    '/.%2e/main/cli.js',
    '/%2e./main/cli.js',
    '/..%2fmain%2fcli.js',
    '/..;/main/cli.js',
    '/%2F' + enc(secretAbs.slice(1)),
    '/' + enc(secretAbs),
    '//' + secretAbs.slice(1),
    '/..%2f'.repeat(12) + enc(secretAbs.slice(1)),
    '/%2Fetc%2Fpasswd',
    '/./././../main/cli.js',
    '/%u002e%u002e/main/cli.js',
    '/%ef%bc%8e%ef%bc%8e/main/cli.js',
    '/..%00/main/cli.js',
    '/assets/%2e%2e%5c%2e%2e%5cmain%5ccli.js',
  ];
  const list: Case[] = [
    // bad percent-encodings
    { name: 'truncated UTF-8 escape (the reported crash)', bytes: get('/%E0%A4%A'), expect: 400 },
    { name: 'lone percent', bytes: get('/%'), expect: 400 },
    { name: 'double percent', bytes: get('/%%'), expect: 400 },
    { name: 'non-hex escape', bytes: get('/%zz'), expect: 400 },
    { name: 'invalid UTF-8 byte', bytes: get('/%FF'), expect: 400 },
    { name: 'UTF-16 surrogate as UTF-8', bytes: get('/%ED%A0%80'), expect: 400 },
    { name: 'overlong slash encoding', bytes: get('/%C0%AF'), expect: 400 },
    { name: 'bad escape under assets', bytes: get('/assets/%E0'), expect: 400 },
    { name: 'bad escape in the query', bytes: get('/?token=%E0%A4%A') },
    { name: 'bad escape in an API path', bytes: post('/api/call/%E0%A4%A', '{}') },
    { name: 'bad escape in the events path', bytes: get('/api/events?token=%E0') },
    // overlong
    { name: '10 KB path', bytes: get('/' + 'a'.repeat(10_000)) },
    { name: '4000 segments', bytes: get('/' + 'a/'.repeat(4000)) },
    { name: 'segment longer than a file name may be', bytes: get('/' + 'x'.repeat(300) + '.js') },
    { name: '100 KB path (beyond the header limit)', bytes: get('/' + 'b'.repeat(100_000)) },
    // traversal, encoded every way
    ...traversals.map((t) => ({ name: `traversal ${t.slice(0, 60)}`, bytes: get(t) })),
    { name: 'raw backslash traversal', bytes: get('/..\\..\\main\\cli.js') },
    // NUL
    { name: 'encoded NUL before an extension', bytes: get('/index.html%00.png'), expect: 400 },
    { name: 'encoded NUL alone', bytes: get('/%00'), expect: 400 },
    { name: 'raw NUL byte in the path', bytes: Buffer.from(fill(get('/a\u0000b')), 'latin1') },
    // request-target forms
    { name: 'absolute-form to this server', bytes: get('http://127.0.0.1:PORT/') },
    {
      name: 'absolute-form to another host with traversal',
      bytes: get('http://evil.example/../../etc/passwd'),
    },
    { name: 'absolute-form with a broken host', bytes: get('http://[') },
    { name: 'absolute-form with a broken IPv6 host and user info', bytes: get('http://a:b@[::1/') },
    { name: 'absolute-form file URL', bytes: get('file:///etc/passwd') },
    { name: 'absolute-form with an unknown scheme', bytes: get('javascript:alert(1)') },
    { name: 'protocol-relative target', bytes: get('//evil.example/x') },
    { name: 'triple-slash target', bytes: get('///etc/passwd') },
    {
      name: 'authority-form CONNECT',
      bytes: 'CONNECT 127.0.0.1:PORT HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n',
    },
    { name: 'authority-form GET', bytes: get('127.0.0.1:PORT') },
    {
      name: 'asterisk-form OPTIONS',
      bytes: 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n',
    },
    { name: 'API call in absolute-form with a broken host', bytes: post('http://[/api/call/app.info', '{}') },
    // headers
    { name: '100 KB header value', bytes: get('/', `X-Big: ${'h'.repeat(100_000)}\r\n`) },
    { name: '3000 headers', bytes: get('/', 'X-A: 1\r\n'.repeat(3000)) },
    { name: 'header without a colon', bytes: get('/', 'NoColonHere\r\n') },
    { name: 'header with a CR inside', bytes: get('/', 'X-A: a\rb\r\n') },
    {
      name: 'huge Authorization on an API call',
      bytes: post('/api/call/app.info', '{}', `Authorization: Bearer ${'t'.repeat(60_000)}\r\n`),
    },
    // methods and versions
    { name: 'unknown method', bytes: 'BREW / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n' },
    { name: 'lower-case method', bytes: 'get / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n' },
    { name: 'method with a space', bytes: 'G ET / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n' },
    {
      name: 'DELETE on a page',
      bytes: 'DELETE / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n',
      expect: 405,
    },
    {
      name: 'PUT on the API',
      bytes: 'PUT /api/call/app.info HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n',
    },
    { name: 'PROPFIND', bytes: 'PROPFIND / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n' },
    { name: 'TRACE', bytes: 'TRACE / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n' },
    { name: 'HTTP/9.9', bytes: 'GET / HTTP/9.9\r\nHost: 127.0.0.1:PORT\r\n\r\n' },
    { name: 'HTTP/0.9 request line', bytes: 'GET /\r\n\r\n' },
    { name: 'bare LF line ends', bytes: 'GET / HTTP/1.1\nHost: 127.0.0.1:PORT\nConnection: close\n\n' },
    { name: 'garbage bytes', bytes: randomBytes(2048) },
    { name: 'TLS client hello', bytes: Buffer.from('160301020001000200', 'hex') },
    { name: 'HTTP/2 preface', bytes: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' },
    // bodies
    {
      name: 'Content-Length larger than the body',
      bytes: post('/api/call/app.info', '{}').replace('Content-Length: 2', 'Content-Length: 99'),
    },
    {
      name: 'negative Content-Length',
      bytes: post('/api/call/app.info', '{}').replace('Content-Length: 2', 'Content-Length: -1'),
    },
    {
      name: 'Content-Length and chunked together',
      bytes: post('/api/call/app.info', '{}', 'Transfer-Encoding: chunked\r\n'),
    },
    {
      name: 'malformed chunked body',
      bytes: `POST /api/call/app.info HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nAuthorization: Bearer TOKEN\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`,
    },
    { name: 'API body that is not JSON', bytes: post('/api/call/app.info', '{nope') },
    {
      name: 'API body with bad UTF-8',
      bytes: Buffer.concat([
        Buffer.from(fill(post('/api/call/datasets.list', 'xx').slice(0, -2)), 'latin1'),
        Buffer.from([0xff, 0xfe]),
      ]),
    },
    { name: 'API body JSON null', bytes: post('/api/call/app.info', 'null') },
    { name: 'API body JSON array', bytes: post('/api/call/app.info', '[1]') },
    {
      name: 'API body with __proto__ params',
      bytes: post('/api/call/items.get', '{"params":{"__proto__":{"itemId":1}}}'),
    },
    { name: 'API method named __proto__', bytes: post('/api/call/__proto__', '{}') },
    { name: 'API method named constructor', bytes: post('/api/call/constructor', '{}') },
    {
      name: 'API call with Expect: 100-continue',
      bytes: post('/api/call/app.info', '{}', 'Expect: 100-continue\r\n'),
    },
    {
      name: 'pipelined requests',
      bytes: get('/').replace('Connection: close\r\n', '') + get('/%E0%A4%A') + get('/'),
    },
    // WebSocket upgrades
    {
      name: 'upgrade without a key',
      bytes: upgrade('/api/events?token=TOKEN', 'Sec-WebSocket-Version: 13\r\n'),
    },
    {
      name: 'upgrade with version 99',
      bytes: upgrade(
        '/api/events?token=TOKEN',
        'Sec-WebSocket-Version: 99\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n',
      ),
    },
    {
      name: 'upgrade with a malformed key',
      bytes: upgrade('/api/events?token=TOKEN', 'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: !!\r\n'),
    },
    { name: 'upgrade without the token', bytes: upgrade('/api/events'), expect: 403 },
    { name: 'upgrade to another path', bytes: upgrade('/etc/passwd?token=TOKEN'), expect: 403 },
    { name: 'upgrade with a bad escape', bytes: upgrade('/api/events?token=%E0%A4%A') },
    { name: 'upgrade with a bad escape in the path', bytes: upgrade('/%E0%A4%A') },
    {
      name: 'upgrade in absolute-form with a broken host',
      bytes: upgrade('http://[/api/events?token=TOKEN'),
    },
    {
      name: 'upgrade to h2c',
      bytes: `GET / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n`,
    },
    {
      name: 'upgrade with a foreign Origin',
      bytes: upgrade(
        '/api/events?token=TOKEN',
        'Origin: http://evil.example\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n',
      ),
      expect: 403,
    },
    { name: 'upgrade with a POST', bytes: upgrade('/api/events?token=TOKEN').replace(/^GET/, 'POST') },
    {
      name: 'an unmasked frame after a valid upgrade',
      bytes: upgrade('/api/events?token=TOKEN'),
      afterUpgrade: Buffer.from([0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]),
    },
    {
      name: 'a frame with a reserved opcode after a valid upgrade',
      bytes: upgrade('/api/events?token=TOKEN'),
      afterUpgrade: Buffer.from([0x83, 0x80, 1, 2, 3, 4]),
    },
    {
      name: 'a 2 GB frame length after a valid upgrade',
      bytes: upgrade('/api/events?token=TOKEN'),
      afterUpgrade: Buffer.from([0x82, 0xff, 0, 0, 0, 0, 0x80, 0, 0, 0, 1, 2, 3, 4]),
    },
    // Host
    { name: 'no Host header', bytes: 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n' },
    { name: 'empty Host header', bytes: 'GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n' },
    {
      name: 'foreign Host',
      bytes: 'GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
      expect: 403,
    },
    {
      name: 'duplicate Host, good then evil',
      bytes: 'GET / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
    },
    {
      name: 'duplicate Host, evil then good',
      bytes: 'GET / HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n',
    },
    {
      name: 'Host with a user-info',
      bytes: 'GET / HTTP/1.1\r\nHost: evil@127.0.0.1:PORT\r\nConnection: close\r\n\r\n',
      expect: 403,
    },
    // query-only and odd targets
    { name: 'query-only target', bytes: get('?x=1') },
    { name: 'bare question mark', bytes: get('?') },
    { name: 'slash and empty query', bytes: get('/?') },
    { name: 'fragment in the target', bytes: get('/#frag') },
    { name: 'empty target', bytes: 'GET  HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n' },
    // backslashes
    { name: 'backslash target', bytes: get('\\') },
    { name: 'backslash-escaped backslashes', bytes: get('/%5C%5C') },
    { name: 'backslash after the slash', bytes: get('/\\evil.example') },
    // unicode
    { name: 'encoded Chinese path', bytes: get('/' + enc('中文')) },
    { name: 'raw UTF-8 bytes in the path', bytes: Buffer.from(fill(get('/中文.js')), 'utf8') },
    { name: 'emoji escape', bytes: get('/%F0%9F%98%80') },
    { name: 'right-to-left override escape', bytes: get('/%E2%80%AEsj.xedni') },
    { name: 'fullwidth solidus', bytes: get('/..%EF%BC%8F..%EF%BC%8Fetc%EF%BC%8Fpasswd') },
    { name: 'combining dot', bytes: get('/.%CC%87./main/cli.js') },
  ];
  return list;
}

const tally = { tried: 0, refused: 0, served: 0, crashed: 0 };

async function answersNormally(): Promise<boolean> {
  if (exitCode !== undefined) return false;
  const r = await sendRaw(get('/'));
  return r.status === 200 && allowedBodies.has(sha(r.body));
}

/** Starts (or, after a crash, restarts) `judge-lab serve` on the same data folder. */
async function startServe(): Promise<void> {
  exitCode = undefined;
  child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.once('exit', (code) => (exitCode = code));
  child.stderr!.on('data', (c) => (stderr += c));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}${stderr}`)), 30_000);
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        port = Number(m[1]);
        token = m[2];
        resolve();
      }
    });
  });
}

async function restart(): Promise<void> {
  stderr = '';
  if (exitCode === undefined) child.kill('SIGKILL');
  await new Promise((done) => (exitCode === undefined ? child.once('exit', done) : done(null)));
  await startServe();
}

beforeAll(async () => {
  assertBuilt();
  for (const f of filesUnder(RENDERER)) allowedBodies.add(sha(readFileSync(f)));
  const t = tempDir();
  dataDir = t.dir;
  cleanup = t.cleanup;
  writeFileSync(join(dataDir, 'secret.txt'), MARKER);
  await startServe();
});

afterAll(async () => {
  if (child && exitCode === undefined) {
    await new Promise((done) => {
      child.once('exit', done);
      child.kill('SIGTERM');
    });
  }
  // The figure for the report: how many shapes were tried, refused, served, crashed.
  console.log(`hostile requests: ${JSON.stringify(tally)}`);
  cleanup?.();
});

describe('serve under hostile requests', () => {
  it('answers a malformed percent-encoding with 400 and keeps running (the reported crash)', async () => {
    const r = await sendRaw(get('/%E0%A4%A'));
    expect(r.status).toBe(400);
    expect(await answersNormally()).toBe(true);
  });

  it('survives every malformed request shape, never answers 500 and never serves a file outside the renderer', async () => {
    if (!(await answersNormally())) await restart();
    const problems: string[] = [];
    for (const c of cases()) {
      tally.tried++;
      const r = await sendRaw(c.bytes, c.afterUpgrade);
      const alive = await answersNormally();
      if (!alive) {
        tally.crashed++;
        problems.push(
          `${c.name}: the server stopped answering (${/^\w*Error.*$/m.exec(stderr)?.[0] ?? `exit ${exitCode}`})`,
        );
        await restart();
        continue;
      }
      const text = r.body.toString('latin1');
      if (text.includes(MARKER) || /root:.*:0:0:/.test(text))
        problems.push(`${c.name}: served a file outside the renderer`);
      if (
        r.status === 200 &&
        !r.headers['content-type']?.startsWith('application/json') &&
        !allowedBodies.has(sha(r.body))
      )
        problems.push(`${c.name}: 200 with a body that is no renderer file`);
      if (r.status !== null && r.status >= 500) problems.push(`${c.name}: answered ${r.status}`);
      if (c.expect !== undefined && r.status !== c.expect)
        problems.push(`${c.name}: expected ${c.expect}, got ${r.status}`);
      if (r.status === null || r.status >= 400) tally.refused++;
      else tally.served++;
    }
    expect(problems).toEqual([]);
    expect(tally.tried).toBeGreaterThanOrEqual(100);
  }, 300_000);
});
