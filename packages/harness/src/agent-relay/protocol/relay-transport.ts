/**
 * One message as a relay delivered it. Everything here came from outside: the body is untrusted
 * text, and `from` is only as trustworthy as the relay that reports it.
 */
export interface RelayInboundMessage {
  /** The relay's own event or message id; the same message delivered twice carries the same id. */
  id: string;
  /** The name the message was sent from. */
  from: string;
  /** The name the message was sent to. */
  target: string;
  /** The thread the sender put the message on, when the relay reports one. */
  threadId?: string | undefined;
  /** The body, unparsed. */
  text: string;
}

/** One message to send through a relay. */
export interface RelaySendInput {
  /** The sender's name. */
  from: string;
  /** The recipient's name (an agent or worker name). */
  to: string;
  /** The body. */
  text: string;
  /** The thread the message belongs to. */
  threadId?: string | undefined;
  /** The channel the conversation belongs to, for relays that record it. */
  channelId?: string | undefined;
}

/**
 * What `AgentRelayExecutionAdapter` and the worker bridge need from a relay: send a message to a
 * name, and receive the messages addressed to a name. `RelayAdapter`
 * (`@agent-assistant/harness/agent-relay`) implements it over the Agent Relay broker, and
 * `createMemoryRelay()` (`@agent-assistant/harness/testing`) in memory.
 */
export interface RelayTransport {
  /** Sends one message. Resolves once the relay accepted it; rejects when it did not. */
  send(message: RelaySendInput): Promise<void>;
  /**
   * Delivers every inbound message whose `target` is `name` to `listener`, until the returned
   * function is called. A relay that broadcasts everything filters here. Listeners must not throw;
   * a transport ignores what they throw. Calling the returned function twice is harmless.
   */
  subscribe(name: string, listener: (message: RelayInboundMessage) => void): () => void;
  /**
   * Optional. Calls `listener` when the relay finds it has lost its connection (for example the
   * broker died), so waiting callers can give up early instead of waiting out their timeout.
   * Returns the function that stops watching. Relays without it are simply not watched.
   */
  watchConnection?(listener: (error: Error) => void): () => void;
}
