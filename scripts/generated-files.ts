import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { writeFileAtomically } from '../local/atomic-file.ts';

export interface GeneratedFile {
  file: URL;
  text: string;
}

async function committed(file: URL): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * `write` regenerates the files; `check` fails when a committed file differs from what the
 * code generates now, naming the command that brings it up to date.
 */
export async function writeOrCheck(
  mode: string | undefined,
  generate: () => Promise<GeneratedFile[]>,
  writeCommand: string,
  usage: string,
): Promise<void> {
  if (mode !== 'write' && mode !== 'check') throw new Error(`usage: ${usage}`);
  const files = await generate();
  if (mode === 'write') {
    for (const { file, text } of files) await writeFileAtomically(fileURLToPath(file), text);
    console.log(`wrote ${files.map(({ file }) => file.pathname).join(', ')}`);
    return;
  }
  const stale: string[] = [];
  for (const { file, text } of files) if ((await committed(file)) !== text) stale.push(file.pathname);
  if (stale.length > 0) throw new Error(`stale: ${stale.join(', ')}; run \`${writeCommand}\` and commit the result.`);
  console.log(`up to date: ${files.map(({ file }) => file.pathname).join(', ')}`);
}

/** Runs a generator script's main, printing only the message of what failed. */
export function runScript(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
