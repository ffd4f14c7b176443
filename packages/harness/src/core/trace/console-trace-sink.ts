import type { HarnessTraceEvent, HarnessTraceSink } from '../types/trace.js';

/** Options of `consoleTraceSink`. */
export interface ConsoleTraceSinkOptions {
  /**
   * Where lines go.
   * @default console.log
   */
  log?: ((line: string) => void) | undefined;
  /**
   * Print the whole event as JSON instead of a one-line summary.
   * @default false
   */
  json?: boolean | undefined;
}

/** A trace sink that prints one line per event. */
export function consoleTraceSink(options: ConsoleTraceSinkOptions = {}): HarnessTraceSink {
  const log = options.log ?? ((line: string) => console.log(line));
  return {
    emit(event) {
      log(options.json === true ? JSON.stringify(event) : summarise(event));
    },
  };
}

function summarise(event: HarnessTraceEvent): string {
  const head = `[${event.turnId} #${event.iteration} +${event.elapsedMs}ms] ${event.type}`;
  switch (event.type) {
    case 'model_step_finished':
      return `${head} ${event.outputType} (${event.latencyMs}ms)${event.notes === undefined ? '' : ` — ${event.notes.join('; ')}`}`;
    case 'tool_requested':
      return `${head} ${event.calls.map((call) => call.name).join(', ')}`;
    case 'tool_started':
      return `${head} ${event.call.name}`;
    case 'tool_finished':
    case 'tool_failed':
      return `${head} ${event.result.toolName} ${event.result.status}${event.result.error ? ` (${event.result.error.code})` : ''}`;
    case 'clarification_requested':
      return `${head} ${event.question}`;
    case 'approval_requested':
      return `${head} ${event.requests.map((request) => request.summary).join('; ')}`;
    case 'limit_reached':
      return `${head} ${event.stopReason}`;
    case 'turn_finished':
      return `${head} ${event.outcome}/${event.stopReason}`;
    default:
      return head;
  }
}
