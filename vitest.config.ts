import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The folders in the order their files start (docs/developing.md, Tests). The stacks' files first:
 * they share their workers' modules (isolate: false) and a worker runs them one after another,
 * about a minute of synthesis in all, which, started after the store's files, ended the run
 * with one core busy (2026-11-28: vitest 405 s, of which the last 50 s the stacks' files alone;
 * 395 s with them first). Then the slowest kind, the processes' files, 20 to 90 s each; the many
 * short files fill the end.
 */
const FOLDERS_IN_START_ORDER = ['test/stacks/', 'test/process/', 'test/store/', 'test/browser/', 'test/fast/'];

/**
 * The file that starts before all others: `npm run synth` bundling every function, then cfn-lint on
 * its templates, one chain of child processes about 2 minutes long (116 s alone on 2 cores at load
 * average 5): started after the others, it would end the run alone.
 */
const STARTS_FIRST = 'test/stacks/infra/synth.test.ts';

/**
 * Vitest's own order starts the projects by name (fast, stacks, store) and, before a first run
 * has recorded the files' times, the larger files first: the processes' tests started last of
 * all and were among the last files to end. Within a folder vitest's order holds (the recorded
 * times, slowest first, once there are some).
 */
class FolderOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const folderRank = (file: TestSpecification) => {
      const path = relative(file.project.config.root, file.moduleId);
      if (path === STARTS_FIRST) return -1;
      const rank = FOLDERS_IN_START_ORDER.findIndex((folder) => path.startsWith(folder));
      return rank === -1 ? FOLDERS_IN_START_ORDER.length : rank;
    };
    return (await super.sort(files)).sort((a, b) => folderRank(a) - folderRank(b));
  }
}

/**
 * Tests are filed by what they need (docs/developing.md, Tests): test/fast/ nothing but the code
 * (mocked AWS SDK, files, fast-check), test/stacks/ the synthesized CDK stacks, test/store/
 * DynamoDB Local, test/process/ processes of their own (npm start, the tools), test/browser/ a
 * browser. Only the tests that need it get the shared DynamoDB Local, so `npm run test:fast`
 * starts no JVM.
 */
export default defineConfig({
  test: {
    // Run by npm run test:lambda-runtime, after the runtime client's native build (test/lambda-runtime/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/lambda-runtime/**'],
    // Three files at a time at least, where vitest's default (a core less than the machine has)
    // would run one on two cores: most files spend their time waiting on DynamoDB Local, the
    // server's process or a child's start, not computing. Four of the processes' files took 205 s
    // two at a time and 183 s three at a time, on the same 128 s of CPU (2 cores, load average 8
    // to 10; docs/developing.md, Tests).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    setupFiles: ['test/setup.ts'],
    sequence: { sequencer: FolderOrder },
    // Bounds against a hang, not measures of speed: a test that starts DynamoDB Local (a JVM) or
    // the server as a process took 15-25 s per start on a 2-core machine at load average 20, and
    // some start two. Speed is measured in bench/, never asserted here.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    env: {
      // Quiet output: no log lines, and no metric lines (which ignore LOG_LEVEL by design).
      LOG_LEVEL: 'silent',
      METRICS_DISABLED: 'true',
      // The DynamoDB Local engines the tests start (each npm start as a process, each tool on a
      // data directory) live seconds and serve a few requests: the JVM's first
      // compiler alone brings one up on 2.4 s of CPU instead of 4.2 s (docs/developing.md, Tests).
      // The workers' environment only: the run's shared engine (test/global-setup.ts) keeps both.
      JAVA_TOOL_OPTIONS: '-XX:TieredStopAtLevel=1',
    },
    projects: [
      // The files share their workers' modules: vitest's and the service's load once per worker, not
      // once per file (43.5 s of CPU alone, 16.2 s shared). Each file restores the environment,
      // timers and spies it stubs, and the files pass in any order (docs/developing.md, Tests).
      { extends: true, test: { name: 'fast', include: ['test/fast/**/*.test.ts'], isolate: false } },
      {
        extends: true,
        test: {
          name: 'stacks',
          include: ['test/stacks/**/*.test.ts'],
          // The files share their workers' modules: the first synthesis in a process costs about
          // 12 s of CPU (aws-cdk-lib's modules loading and compiling), each one after it about 3 s.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'store',
          include: ['test/{store,process,browser}/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
