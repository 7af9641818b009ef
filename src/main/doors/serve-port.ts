// The web door's port, kept across restarts beside the token (serve-token.ts): a page's origin
// is its address, so a restart on another port would strand every open tab and the wizard
// draft kept in its localStorage (issue 26). A port taken meanwhile gives way to a free one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWebServer } from './web';

export const PORT_FILE_NAME = 'serve-port';

function rememberedPort(file: string): number | undefined {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 0 && n <= 65535 ? n : undefined;
  } catch {
    return undefined; // first start, or an unreadable file: any free port
  }
}

/** startWebServer on the port of the last start when no port is asked for; remembers the one used. */
export async function startWebServerKeepingPort(
  opts: Parameters<typeof startWebServer>[0] & { dataDir: string },
): ReturnType<typeof startWebServer> {
  const { dataDir, ...rest } = opts;
  const file = join(dataDir, PORT_FILE_NAME);
  if (rest.port !== undefined) return startWebServer(rest);
  const last = rememberedPort(file);
  let server: Awaited<ReturnType<typeof startWebServer>>;
  try {
    server = await startWebServer({ ...rest, port: last });
  } catch (err) {
    if (last === undefined || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    server = await startWebServer({ ...rest, port: 0 });
  }
  try {
    writeFileSync(file, `${server.port}\n`);
  } catch {
    // Not remembered: the next start picks a free port, as before.
  }
  return server;
}
