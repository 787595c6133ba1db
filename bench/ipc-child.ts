import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * Runs a TypeScript module of the bench in a process of its own (so that it does not share the
 * measured processes' or the bench's event loop), waits for the first message it sends over
 * IPC, and stops it by disconnecting, which the module answers by exiting.
 */
export async function startIpcChild<Message>(
  script: string,
  args: readonly string[],
): Promise<{ message: Message; stop: () => Promise<void> }> {
  // Its standard output is dropped (a server's request logs still cost their writes); errors show.
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(() => Promise.reject(new Error(`${script} exited before it was ready`))),
  ])) as [Message];
  return {
    message,
    stop: async () => {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}
