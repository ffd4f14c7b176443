import { describe, expect, it } from 'vitest';
import * as entry from './index.js';
import type { OwnedRelayModule } from './protocol/owned-relay.js';

// AgentRelayExecutionAdapter loads this entry by package name, not by import (so the adapter's
// folder never imports the broker client's); this annotation is where the compiler checks that
// the entry still fits what the adapter expects to load.
const loaded: OwnedRelayModule = entry;

describe('the ./agent-relay entry', () => {
  it('builds the relay AgentRelayExecutionAdapter starts by default, from the options it passes', async () => {
    const relay = new loaded.RelayAdapter({ cwd: process.cwd(), channels: ['channel-1'] });
    expect(relay).toBeInstanceOf(entry.RelayAdapter);
    await relay.shutdown();
  });
});
