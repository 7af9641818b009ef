import { chromium, type Browser } from 'playwright-core';

// Screenshots: save them with saveScreenshot (test/helpers/screenshots.ts), the one rule.
export { SCREENSHOT_DIR } from './screenshots';

/** Debian's Chromium, headless, with the flags this closed network needs. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
