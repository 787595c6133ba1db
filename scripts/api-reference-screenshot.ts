/**
 * `npm run docs:screenshot` rewrites docs/api-reference.png, the picture of the reference the
 * README shows: the local server with the demo inventory, read in the browser the tests use.
 * Chromium reaches it as http://localhost:3000 whatever port it listens on (a host resolver
 * rule), so the picture shows the URL a developer's `npm start` serves.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { writeFileAtomically } from '../local/atomic-file.ts';
import { startLocalApp } from '../local/local-app.ts';
import { DEMO_INVENTORY } from '../contract/demo-inventory.ts';
import { launchChromium } from '../test/browser/chromium.ts';

const SCREENSHOT_FILE = fileURLToPath(new URL('../docs/api-reference.png', import.meta.url));
/** The operation the picture shows: the one with the most to read (a parameter, a body, every kind of answer). */
const SHOWN_SECTION = 'operation-updateInventory';

async function main(): Promise<void> {
  const app = await startLocalApp({
    seed: DEMO_INVENTORY,
    devApiKey: 'ScreenshotKey0000000000000000001',
    devPlan: 'free',
    // The address a developer's npm start serves, whatever port this one listens on: the picture does not change with the port.
    publicBaseUrl: 'http://localhost:3000/v1',
  });
  const port = new URL(app.baseUrl).port;
  const browser = await launchChromium([`--host-resolver-rules=MAP localhost:3000 127.0.0.1:${port}`]);
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1440, height: 1100 });
    await page.goto('http://localhost:3000/v1/docs', { waitUntil: 'networkidle0' });
    await page.$eval(`#${SHOWN_SECTION}`, (element) =>
      (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ behavior: 'instant' }),
    );
    const picture = await page.screenshot();
    const committed = await readFile(SCREENSHOT_FILE).catch(() => undefined);
    // The same page gives the same pixels: an unchanged picture is not rewritten, so the tree stays clean.
    if (committed?.equals(picture)) {
      console.log(`unchanged: ${SCREENSHOT_FILE}`);
      return;
    }
    await writeFileAtomically(SCREENSHOT_FILE, picture);
    console.log(`wrote ${SCREENSHOT_FILE}`);
  } finally {
    await browser.close();
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
