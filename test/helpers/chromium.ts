/**
 * Debian's Chromium for the browser tests, driven by playwright-core (which downloads no browser): installed with
 * apt-get when missing and we are root (CI runs on a fresh machine), launched headless with the flags a container needs.
 */
import fs from 'node:fs';
import path from 'node:path';
import execa from 'execa';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Installs Debian's `chromium` package when the browser is missing (needs root); throws with how to fix it otherwise. */
export async function ensureChromium(): Promise<string> {
  if (fs.existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.getuid?.() !== 0)
    throw new Error(`${CHROMIUM_PATH} is missing: install it with \`sudo apt-get install -y chromium\``);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await execa('apt-get', ['update'], { env });
  await execa('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env });
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`apt-get install chromium did not provide ${CHROMIUM_PATH}`);
  return CHROMIUM_PATH;
}

/** Launches headless Chromium with --no-sandbox --disable-gpu --disable-background-networking. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: await ensureChromium(),
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Folder for screenshots kept as test artifacts (gitignored): `test-artifacts/<name>/`. */
export function artifactDir(name: string): string {
  const dir = path.resolve(__dirname, '../../test-artifacts', name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
