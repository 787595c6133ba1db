/**
 * `npm run inventory -- <import|export>`: loads an inventory file into a store, or writes a
 * store's inventory to one; the local store by default, a deployed stage with --stage. See the
 * "Inventory in and out of a stage" in docs/deploying-and-operating.md.
 */
import { createInventoryRepository } from '../../functions/adapters/dynamodb/inventory-repository.ts';
import { createDocumentClient } from '../../functions/adapters/dynamodb/document-client.ts';
import { TOOL_KEY_IDS, toolAttribution } from '../../functions/domain/change-attribution.ts';
import type { InventoryRepository } from '../../functions/domain/inventory-service.ts';
import type { InventoryCount } from '../../functions/domain/schemas.ts';
import { LOCAL_TABLES } from '../../local/local-store.ts';
import { STACK_OUTPUTS, type DeploymentStage } from '../../lib/deployments.ts';
import { writeFileAtomically } from '../../local/atomic-file.ts';
import { dataDirOf, oneOf, parseCommandLine, runTool, stageOf, UsageError } from '../keys/cli-arguments.ts';
import { openLocalStore, readStageOutputs } from '../keys/key-targets.ts';
import { ENTRY_SHAPE, formatInventoryFile, type InventoryFileEntry, readInventoryFile, sameEntry } from '../../local/inventory-file.ts';
import { createLowStockThresholdRepository } from '../../functions/adapters/dynamodb/low-stock-threshold-repository.ts';
import type { LowStockThresholdRepository } from '../../functions/domain/low-stock.ts';
import { isMainModule } from '../main-module.ts';

const USAGE = `Usage: npm run inventory -- <command> [options]

Commands:
  import --file <items.json>   validate the whole file, then create or replace its entries' counts (entries not in it
                               are kept; an entry's "reserved" and "available" are not imported: reservations hold stock)
  export [--file <out.json>]   write every entry with its "reserved" and "available", sorted by petId (default: to
                               standard output)

Options:
  --stage <staging|prod>   work on a deployed stage (AWS credentials needed); default: the local store
  --data-dir <dir>         the local store's directory (default: $DATA_DIR or .data)`;

const COMMANDS = ['import', 'export'] as const;
/** A progress report each time the count of entries written passes a multiple of this. */
const PROGRESS_STEP = 500;

export interface InventoryTarget {
  inventory: InventoryRepository;
  /** The entries' low-stock thresholds, which the file carries beside the counts. */
  thresholds: LowStockThresholdRepository;
  describe: string;
  close(): Promise<void>;
}

export interface InventoryToolOutput {
  /** Results and the summary. */
  print(line: string): void;
  /** Progress of a long write, when a terminal shows it. */
  progress?(done: number, total: number): void;
  /** Standard output, for what was asked for: the usage, and the file's text of `export` without --file. */
  write(text: string): void;
}

/** The local store (through the running server when `npm start` runs) or a stage's inventory table, as the key tool finds them. */
export async function openInventoryTarget(stage: DeploymentStage | undefined, dataDir: string): Promise<InventoryTarget> {
  if (!stage) {
    const store = await openLocalStore(dataDir);
    return {
      inventory: createInventoryRepository(store.client, LOCAL_TABLES.inventoryTable),
      thresholds: createLowStockThresholdRepository(store.client, LOCAL_TABLES.inventoryTable),
      describe: store.describe,
      close: store.close,
    };
  }
  const { stackName, output } = await readStageOutputs(stage);
  const client = createDocumentClient();
  return {
    inventory: createInventoryRepository(client, output(STACK_OUTPUTS.inventoryTableName)),
    thresholds: createLowStockThresholdRepository(client, output(STACK_OUTPUTS.inventoryTableName)),
    describe: `stage ${stage} (${stackName})`,
    close: async () => client.destroy(),
  };
}

const entries = (count: number) => `${count} ${count === 1 ? 'entry' : 'entries'}`;

async function importFile(file: string, target: InventoryTarget, output: InventoryToolOutput): Promise<void> {
  const items = await readInventoryFile(file);
  const stored = new Map<bigint, InventoryCount>();
  for await (const batch of target.inventory.listAll()) for (const item of batch) stored.set(item.petId, item);
  const added = items.filter((item) => !stored.has(item.petId));
  const changed = items.filter((item) => stored.has(item.petId) && !sameEntry(stored.get(item.petId)!, item));
  // Only what differs is written, so a re-run writes nothing at all.
  const toWrite = [...added, ...changed];
  const attribution = toolAttribution('import', TOOL_KEY_IDS.inventoryImport);
  let reported = 0;
  await target.inventory.putMany(toWrite, attribution, (written) => {
    // Entries are written a group at a time, so a report is due whenever the count passes a step.
    if (Math.floor(written / PROGRESS_STEP) > Math.floor(reported / PROGRESS_STEP) || written === toWrite.length) {
      reported = written;
      output.progress?.(written, toWrite.length);
    }
  });
  // A threshold the file sets is written where it differs (no version, no change: see low-stock.ts); one the file leaves out stays as it is.
  const storedThresholds = await thresholdsOf(target);
  const thresholdsToSet = items.filter(
    (item) => item.lowStockThreshold !== undefined && storedThresholds.get(item.petId) !== item.lowStockThreshold,
  );
  for (const { petId, lowStockThreshold } of thresholdsToSet) await target.thresholds.set(petId, lowStockThreshold!);
  output.print(
    `Imported ${file} into the ${target.describe}: ${entries(items.length)}, ${added.length} new, ${changed.length} changed, ${items.length - toWrite.length} unchanged${thresholdsToSet.length > 0 ? `; ${thresholdsToSet.length} low-stock ${thresholdsToSet.length === 1 ? 'threshold' : 'thresholds'} set` : ''}.`,
  );
}

/** Every threshold the target holds, by petId. */
async function thresholdsOf(target: InventoryTarget): Promise<Map<bigint, number>> {
  const thresholds = new Map<bigint, number>();
  for await (const page of target.thresholds.listAll()) for (const { petId, threshold } of page) thresholds.set(petId, threshold);
  return thresholds;
}

async function exportFile(file: string | undefined, target: InventoryTarget, output: InventoryToolOutput): Promise<void> {
  const items: InventoryFileEntry[] = [];
  for await (const batch of target.inventory.listAll()) items.push(...batch);
  const thresholds = await thresholdsOf(target);
  const text = formatInventoryFile(
    items.map((item) => (thresholds.has(item.petId) ? { ...item, lowStockThreshold: thresholds.get(item.petId)! } : item)),
  );
  if (file === undefined) {
    output.write(text);
    return;
  }
  await writeFileAtomically(file, text);
  output.print(`Exported ${entries(items.length)} from the ${target.describe} to ${file}.`);
}

export async function runInventoryCommand(
  argv: string[],
  target: (stage: DeploymentStage | undefined, dataDir: string) => Promise<InventoryTarget>,
  output: InventoryToolOutput,
): Promise<void> {
  const { values, positionals } = parseCommandLine(argv, { file: { type: 'string' } }, 'inventory');
  const [commandName, ...extra] = positionals;
  if (values.help || commandName === undefined) {
    output.write(`${USAGE}\n`);
    return;
  }
  const command = oneOf('The command', commandName, COMMANDS);
  if (extra.length > 0) throw new UsageError(`${command} takes no argument "${extra[0]}"; name the file with --file <path>.`);
  if (command === 'import' && !values.file) throw new UsageError(`import needs --file <items.json>: a JSON array of ${ENTRY_SHAPE}.`);
  const stage = stageOf(values.stage);
  const opened = await target(stage, dataDirOf(values));
  try {
    if (command === 'import') await importFile(values.file!, opened, output);
    else await exportFile(values.file, opened, output);
  } finally {
    await opened.close();
  }
}

/** A bar on a terminal, rewritten in place; nothing when stderr is a file or a pipe. */
function terminalProgress(done: number, total: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\rwriting [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
}

if (isMainModule(import.meta.url)) {
  runTool(() =>
    runInventoryCommand(process.argv.slice(2), openInventoryTarget, {
      print: (line) => console.error(line),
      write: (text) => process.stdout.write(text),
      ...(process.stderr.isTTY ? { progress: terminalProgress } : {}),
    }),
  );
}
