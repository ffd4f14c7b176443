// A hostile writer inside a VFS workspace: it keeps swapping the directory `<workspace>/<name>`
// for a symbolic link to `<target>` and back, as fast as it can, until the parent sends "stop".
// It then restores the real directory and replies with the number of swaps it made.
//
// Usage (as a forked child): swap-component.mjs <workspace> <name> <target>
import { lstatSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate } from 'node:timers';

const [workspace, name, target] = process.argv.slice(2);
const component = join(workspace, name);
const parked = join(workspace, `${name}.parked`);
let swaps = 0;
let stopping = false;

process.on('message', (message) => {
  if (message === 'stop') stopping = true;
});

/** Stays in the current state for a few cheap system calls, so both states last about as long. */
function dwell() {
  for (let i = 0; i < 3; i += 1) lstatSync(component);
}

function burst() {
  // A few hundred swaps at a time, then one turn of the event loop to hear "stop".
  for (let i = 0; i < 200; i += 1) {
    renameSync(component, parked);
    symlinkSync(target, component);
    dwell();
    unlinkSync(component);
    renameSync(parked, component);
    dwell();
    swaps += 1;
  }
  if (stopping) {
    process.send({ swaps }, () => process.exit(0));
    return;
  }
  setImmediate(burst);
}

process.send('ready');
burst();
