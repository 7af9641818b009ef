// The e2e project's global setup: one Chromium for the whole run, which every e2e file connects
// to (test/helpers/browser.ts `launchChromium`) with contexts of its own, instead of one browser
// start per file.
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_LAUNCH } from '../helpers/chromium-flags';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer(CHROMIUM_LAUNCH);
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
