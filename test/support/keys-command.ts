import { runKeysCommand } from '../../tools/keys/cli.ts';
import { openLocalTarget } from '../../tools/keys/key-targets.ts';

/** `npm run keys -- <argv>` on the local store in dataDir (through a running server's store while one runs); the lines it printed. */
export async function localKeysCommand(dataDir: string, ...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runKeysCommand(
    [...argv, '--data-dir', dataDir],
    (_stage, dir) => openLocalTarget(dir),
    (line) => lines.push(line),
  );
  return lines;
}
