import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';
import puppeteer, { type Browser } from 'puppeteer-core';

/**
 * A headless Chromium from the npm package @sparticuz/chromium, which ships the browser itself
 * (brotli-compressed) in its tarball: `npm ci` brings it, with no install script and no
 * download, so the browser tests run wherever the README's two commands do. The package's own
 * extractor writes to a fixed place under the system's temporary directory and reuses whatever
 * it finds there (another project's, another version's); this one extracts once per package
 * version into node_modules/.cache, through a temporary file renamed into place, so a
 * half-written binary is never run.
 */
async function chromiumExecutable(): Promise<string> {
  const packageDirectory = join(dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium'))), '..');
  const { version } = JSON.parse(await readFile(join(packageDirectory, 'package.json'), 'utf8')) as { version: string };
  const executable = join(packageDirectory, '..', '..', '.cache', `sparticuz-chromium-${version}`, 'chromium');
  if (existsSync(executable)) return executable;
  await mkdir(dirname(executable), { recursive: true });
  const partial = `${executable}.${process.pid}.partial`;
  try {
    await pipeline(
      createReadStream(join(packageDirectory, 'bin', 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o700 }),
    );
    await rename(partial, executable);
  } finally {
    await rm(partial, { force: true });
  }
  return executable;
}

/**
 * Flags for a browser that talks to nothing but the page under test: no GPU (software
 * rendering is enough for a screenshot, and the package's GPU libraries are left packed), no
 * background requests of Chromium's own (updates, sync, first-run), no sandbox (tests may run
 * as root, where Chromium's sandbox refuses to start).
 */
const ISOLATED_BROWSER_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-software-rasterizer',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--no-first-run',
];

export async function launchChromium(extraFlags: readonly string[] = []): Promise<Browser> {
  return puppeteer.launch({
    executablePath: await chromiumExecutable(),
    headless: 'shell',
    args: [...ISOLATED_BROWSER_FLAGS, ...extraFlags],
    timeout: 30_000,
  });
}
