// The e2e project's global setup: one Chromium for all its files. Each file used to launch its
// own (~0.5 CPU-s and ~1 s before the first page, 30 files); now each connects to this one and
// opens its pages in contexts of its own, so files still share no cookies, storage or downloads.
// Closing a connected browser (AppInBrowser.close) closes that file's contexts and disconnects.
import type { TestProject } from 'vitest/node';
import { chromiumServer } from '../../helpers/browser';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromiumServer();
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
