// A throwaway Postgres cluster for tests and benchmarks: `initdb` in a temporary folder, a
// loopback port, `pg_ctl` to start, stop, restart; the folder is removed on `destroy`.
//
// The binaries: $PG_BIN, else `initdb` on PATH, else the newest /usr/lib/postgresql/<n>/bin
// (Debian's `postgresql` package; .ci/run installs it when missing). No binaries → a loud error,
// never a skip.
//
// Postgres refuses to run as root (initdb: "cannot be run as root"). Run as root (as CI is), the
// cluster belongs to an unprivileged user — `postgres` (made by Debian's package), else `nobody` —
// and every command runs as that user through `runuser -u <user> --`; the temporary folder is
// chowned to it. Run as anyone else, the commands run as the caller.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The folder holding initdb, pg_ctl and postgres. */
export function findPostgresBin() {
  const candidates = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  for (const folder of (process.env.PATH ?? '').split(':')) if (folder) candidates.push(folder);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(join(debian, version, 'bin'));
  }
  const found = candidates.find((folder) => ['initdb', 'pg_ctl', 'postgres'].every((name) => existsSync(join(folder, name))));
  if (found === undefined) {
    throw new Error(
      'No Postgres server binaries (initdb, pg_ctl, postgres) found in $PG_BIN, on PATH or in /usr/lib/postgresql/*/bin. ' +
        'Install them (Debian: apt-get install -y postgresql) — these tests do not skip.',
    );
  }
  return found;
}

function unprivilegedUser() {
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { name, uid, gid };
    } catch {
      // try the next one
    }
  }
  throw new Error('Running as root, but neither a postgres nor a nobody user exists to own the test cluster.');
}

/** A free loopback TCP port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * Creates and starts a cluster. Superuser `postgres`, trust authentication, loopback only, no
 * Unix socket; `fsync` off unless `fsync: true` (a test cluster survives a server crash, not a
 * machine crash).
 */
export async function startPostgres({ fsync = false } = {}) {
  const bin = findPostgresBin();
  const user = process.getuid?.() === 0 ? unprivilegedUser() : undefined;
  const folder = await mkdtemp(join(tmpdir(), 'harness-postgres-'));
  if (user !== undefined) await chown(folder, user.uid, user.gid);
  const data = join(folder, 'data');
  const log = join(folder, 'server.log');
  const port = await freePort();
  const as = (file, args) =>
    user === undefined ? run(file, args, { cwd: folder }) : run('runuser', ['-u', user.name, '--', file, ...args], { cwd: folder });
  const pgCtl = async (args) => {
    try {
      await as(join(bin, 'pg_ctl'), ['-D', data, ...args]);
    } catch (error) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`pg_ctl ${args.join(' ')} failed: ${error.message}\n${tail}`, { cause: error });
    }
  };

  await as(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  await appendFile(
    join(data, 'postgresql.conf'),
    `\nlisten_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = ''\nfsync = ${fsync ? 'on' : 'off'}\nmax_connections = 100\n`,
  );
  const start = () => pgCtl(['-l', log, '-w', '-t', '60', 'start']);
  const stop = () => pgCtl(['-m', 'fast', '-w', '-t', '60', 'stop']);
  await start();

  let stopped = false;
  // Should the test process end without destroy (a timed-out hook), the server ends with it.
  const onExit = () => {
    try {
      signalServer('SIGCONT');
      signalServer('SIGQUIT');
    } catch {
      // not running
    }
  };
  process.once('exit', onExit);
  /**
   * Signals the postmaster, then each of its children (every server process runs in a session of
   * its own, so there is no process group to signal). Linux only: children are read from /proc.
   */
  const signalServer = (signal) => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(postmaster, signal);
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      let stat;
      try {
        stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        continue; // gone already
      }
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === postmaster) process.kill(Number(name), signal);
    }
  };
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    bin,
    log,
    async stop() {
      await stop();
      stopped = true;
    },
    async start() {
      await start();
      stopped = false;
    },
    async restart() {
      await stop();
      await start();
    },
    /** Freezes every server process (SIGSTOP): connections stay open, nothing answers. */
    freeze: () => signalServer('SIGSTOP'),
    /** Lets every server process go on; nothing to do when the server is not running. */
    thaw() {
      try {
        signalServer('SIGCONT');
      } catch {
        // not running
      }
    },
    async destroy() {
      process.off('exit', onExit);
      if (!stopped) {
        this.thaw();
        await pgCtl(['-m', 'immediate', '-w', '-t', '60', 'stop']).catch(() => undefined);
      }
      await rm(folder, { recursive: true, force: true });
    },
  };
}
