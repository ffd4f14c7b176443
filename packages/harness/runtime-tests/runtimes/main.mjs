// Entry of the scenario runs in runtimes with a file system (Node, Bun, Deno): reads the request
// (JSON) from the file named by the last argument, runs it, prints the result as one JSON line.
import { readFileSync } from 'node:fs';
import { runFsScenarios } from './fs-scenarios.mjs';
import { resumeAll, runScenarios } from './scenarios.mjs';

const request = JSON.parse(readFileSync(process.argv.at(-1), 'utf8'));
const commands = { scenarios: runScenarios, resume: resumeAll, fs: runFsScenarios };
const result = await commands[request.command](request);
process.stdout.write(`${JSON.stringify(result)}\n`);
