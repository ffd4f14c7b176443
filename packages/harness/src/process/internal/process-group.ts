import type { NodeModules } from '../node-types.js';

/** The longest delay `setTimeout` honours. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** Timers of one process's life, all cleared at once when it is over. */
export interface ProcessTimers {
  /** Runs `run` after `delayMs` (clamped to what `setTimeout` honours) unless cleared first. */
  later(delayMs: number, run: () => void): void;
  clear(): void;
}

/** Creates a {@link ProcessTimers}. */
export function createProcessTimers(): ProcessTimers {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  return {
    later(delayMs, run) {
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          run();
        },
        Math.min(Math.max(0, delayMs), MAX_TIMER_DELAY_MS),
      );
      timers.add(timer);
    },
    clear() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** The process group of a child spawned `detached` (its own group; on Windows, its process tree). */
export interface ProcessGroup {
  /** True while a member of the group is alive (always `false` on Windows, which has no groups). */
  alive(): boolean;
  /**
   * SIGTERM to the whole group, SIGKILL after `killGraceMs`, then `onGone` after one more grace
   * period, for a process outside the group that still holds the pipes. Idempotent.
   */
  terminate(): void;
  /**
   * For when the pipes closed: a member that holds none (a tool the engine started, maybe one that
   * ignores SIGTERM) can outlive them. Stops the group when one is left, and calls `done` once the
   * group is gone (checked every {@link GROUP_POLL_MS}; the kill sequence's `onGone` bounds it).
   */
  afterPipesClosed(done: () => void): void;
}

/** How often a process group whose pipes closed is checked for members left. */
export const GROUP_POLL_MS = 20;

/** What {@link createProcessGroup} needs. */
export interface ProcessGroupOptions {
  /** The child's pid once spawned (`undefined` before, or when it never started). */
  pid: () => number | undefined;
  killGraceMs: number;
  /** The environment `taskkill` runs with on Windows. */
  env: Record<string, string>;
  timers: ProcessTimers;
  /** Called once the kill sequence is over without the process having closed its pipes. */
  onGone: () => void;
}

/** The kill sequence shared by one-shot commands and long-lived engines. */
export function createProcessGroup(node: NodeModules, options: ProcessGroupOptions): ProcessGroup {
  const isWindows = node.process.platform === 'win32';
  let terminating = false;
  const signalGroup = (signal: 'SIGTERM' | 'SIGKILL') => {
    const pid = options.pid();
    if (pid === undefined) return;
    try {
      if (isWindows) killWindowsTree(node, pid, signal, options.env);
      else node.process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const alive = () => {
    const pid = options.pid();
    if (pid === undefined || isWindows) return false;
    try {
      node.process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const terminate = () => {
    if (terminating) return;
    terminating = true;
    signalGroup('SIGTERM');
    options.timers.later(options.killGraceMs, () => {
      signalGroup('SIGKILL');
      options.timers.later(options.killGraceMs, options.onGone);
    });
  };
  const whenGone = (done: () => void) => {
    if (alive()) options.timers.later(GROUP_POLL_MS, () => whenGone(done));
    else done();
  };
  return {
    alive,
    terminate,
    afterPipesClosed(done) {
      if (alive()) terminate();
      whenGone(done);
    },
  };
}

/** Windows has no process groups: `taskkill /T` ends the process and everything it started. */
function killWindowsTree(node: NodeModules, pid: number, signal: 'SIGTERM' | 'SIGKILL', env: Record<string, string>): void {
  const args = ['/pid', String(pid), '/T', ...(signal === 'SIGKILL' ? ['/F'] : [])];
  const killer = node.childProcess.spawn('taskkill', args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: false, windowsHide: true, shell: false });
  killer.on('error', () => undefined);
}
