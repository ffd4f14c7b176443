#!/usr/bin/env node
/**
 * @module @agent-assistant/vfs/cli
 * The `vfs` executable: runs `runVfsCli` over `process.argv` and exits with its code.
 */
import { runVfsCli } from './run-vfs-cli.js';

process.exitCode = await runVfsCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
