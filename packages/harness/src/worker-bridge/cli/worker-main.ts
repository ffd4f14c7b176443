import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { describeError } from '../../shared/describe-error.js';
import type { RelayTransport } from '../../agent-relay/protocol/relay-transport.js';
import { createRelayWorkerBridge } from '../relay-worker-bridge.js';
import type { RelayWorkerBridgeEvent } from '../relay-worker-bridge-options.js';
import { createWorkerRunner } from './create-worker-runner.js';
import { parseWorkerArgs, workerUsage, type WorkerArgs } from './worker-args.js';

/** A started relay the worker owns. */
export interface WorkerRelay extends RelayTransport {
  shutdown(): Promise<void>;
}

/** What `runWorkerMain` needs from its process. */
export interface WorkerMainIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Writes text as is (the help). */
  print(text: string): void;
  /** Writes one log line. */
  log(line: string): void;
  /** Writes one error line. */
  error(line: string): void;
  /** Calls `listener` on SIGINT and SIGTERM; returns a function that stops listening. */
  onSignal(listener: (signal: string) => void): () => void;
  /** Connects to the broker. @default a started `RelayAdapter` for `args.cwd` */
  connect?: (args: WorkerArgs) => Promise<WorkerRelay>;
}

/** Exit code for bad flags. */
const USAGE_EXIT = 2;
/** How long a first SIGINT/SIGTERM lets runs in progress finish. */
const SHUTDOWN_GRACE_MS = 10_000;

async function connectRelayAdapter(args: WorkerArgs): Promise<WorkerRelay> {
  const { RelayAdapter } = await import('../../agent-relay/broker-client/relay-adapter.js');
  const relay = new RelayAdapter({ cwd: args.cwd, channels: [args.channel] });
  await relay.start();
  return relay;
}

/** Outside text made safe for one log line: no control characters (no forged lines), bounded. */
const clean = (text: string) => JSON.stringify(text.slice(0, 200)).slice(1, -1);

/** One line for a bridge event (every request gets exactly one `request_finished` line). */
export function formatWorkerEvent(event: RelayWorkerBridgeEvent): string | undefined {
  switch (event.type) {
    case 'request_finished':
      return `request ${clean(event.requestId)} turn ${clean(event.turnId)} from ${clean(event.from)}: ${event.status}${
        event.errorCode === undefined ? '' : ` (${event.errorCode})`
      } in ${event.durationMs} ms${event.replied ? '' : ', reply not delivered'}`;
    case 'message_ignored':
      return `ignored a message from ${clean(event.from)}: ${event.reason}`;
    case 'request_cancelled':
      return `request ${clean(event.requestId)} cancelled by ${clean(event.from)} (${event.reason})`;
    default:
      return undefined;
  }
}

/**
 * The `agent-assistant-worker` program: parses flags, connects to the broker, runs the bridge
 * until SIGINT/SIGTERM (a second signal stops runs at once), then disposes it and shuts the
 * relay down. Resolves with the exit code.
 */
export async function runWorkerMain(io: WorkerMainIo): Promise<number> {
  let args: WorkerArgs;
  let runner;
  try {
    args = parseWorkerArgs(io.argv, io.env, io.cwd);
    if (args.help) {
      io.print(`${workerUsage()}\n`);
      return 0;
    }
    runner = createWorkerRunner(args);
  } catch (error) {
    io.error(`agent-assistant-worker: ${describeError(error)}`);
    return HarnessConfigError.isInstance(error) ? USAGE_EXIT : 1;
  }
  let relay: WorkerRelay;
  try {
    relay = await (io.connect ?? connectRelayAdapter)(args);
  } catch (error) {
    io.error(`agent-assistant-worker: could not connect to the Agent Relay broker: ${describeError(error)}`);
    return 1;
  }
  const bridge = await createRelayWorkerBridge({
    relay,
    channelId: args.channel,
    workerName: args.workerName,
    runner,
    timeoutMs: args.timeoutMs,
    concurrency: args.concurrency,
    disposeTimeoutMs: SHUTDOWN_GRACE_MS,
    ...(args.allowFrom.length === 0 ? {} : { allowedSenders: args.allowFrom }),
    onEvent: (event) => {
      const line = formatWorkerEvent(event);
      if (line !== undefined) io.log(line);
    },
  }).catch(async (error: unknown) => {
    await relay.shutdown().catch(() => undefined);
    throw error;
  });
  io.log(`worker ${args.workerName} ready on channel ${args.channel} (cli ${args.cli}, concurrency ${args.concurrency}, timeout ${args.timeoutMs} ms)`);
  const signal = await new Promise<string>((resolve) => {
    let stopping = false;
    const stopListening = io.onSignal((received) => {
      if (stopping) {
        io.log(`${received} again: stopping runs in progress now`);
        void bridge.dispose({ timeoutMs: 0 });
        return;
      }
      stopping = true;
      resolve(received);
      // Keep listening so a second signal can hurry the shutdown; stop once it is done.
      void bridge.dispose().finally(stopListening);
    });
  });
  io.log(`${signal}: stopping (waiting up to ${SHUTDOWN_GRACE_MS} ms for ${bridge.stats().running} run(s))`);
  await bridge.dispose();
  await relay.shutdown().catch((error: unknown) => io.error(`agent-assistant-worker: relay shutdown failed: ${describeError(error)}`));
  io.log('stopped');
  return 0;
}
