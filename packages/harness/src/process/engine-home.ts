import { loadBuiltins } from '../shared/load-builtins.js';

interface HomeFs {
  mkdtemp(prefix: string): Promise<string>;
  mkdir(path: string, options: { recursive: true; mode: number }): Promise<unknown>;
  writeFile(path: string, data: string, options: { mode: number }): Promise<void>;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
}

/**
 * A home directory for an engine (its `HOME`, where engines keep sessions, settings and logs):
 * the caller's, or a private one made on first use (`<tmpdir>/<prefix>XXXXXX`, mode 0700) and
 * removed by `remove()`. Engines of one adapter share it, so a session can be resumed by a later
 * process of the same adapter.
 */
export class EngineHome {
  private made: Promise<string> | undefined;

  constructor(
    private readonly prefix: string,
    private readonly given: string | undefined,
  ) {}

  /** The directory, made on the first call when none was given. */
  path(): Promise<string> {
    if (this.given !== undefined) return Promise.resolve(this.given);
    this.made ??= (async () => {
      const [fs, os] = (await loadBuiltins(['node:fs/promises', 'node:os'])) as [HomeFs, { tmpdir(): string }];
      return fs.mkdtemp(`${os.tmpdir()}/${this.prefix}`);
    })();
    this.made.catch(() => {
      this.made = undefined;
    });
    return this.made;
  }

  /** Writes `content` to `relativePath` inside the home (directories 0700, the file 0600). */
  async writeFile(relativePath: string, content: string): Promise<void> {
    const home = await this.path();
    const [fs, path] = (await loadBuiltins(['node:fs/promises', 'node:path'])) as [HomeFs, { join(...parts: string[]): string; dirname(path: string): string }];
    const file = path.join(home, relativePath);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(file, content, { mode: 0o600 });
  }

  /** Removes a private home (never the caller's). Never rejects. */
  async remove(): Promise<void> {
    const made = this.made;
    this.made = undefined;
    if (made === undefined) return;
    try {
      const [fs] = (await loadBuiltins(['node:fs/promises'])) as [HomeFs];
      await fs.rm(await made, { recursive: true, force: true });
    } catch {
      // Nothing to remove, or it is gone already.
    }
  }
}
