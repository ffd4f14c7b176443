import type { HarnessContinuation } from '../../core/types/continuation.js';
import { shellQuote } from './shell-quote.js';
import { terminalText } from './terminal-text.js';

/** The longest request id printed in a resume command; a longer one is left for the person to fill in. */
const MAX_SHOWN_ID_LENGTH = 200;
/** What stands for an id that cannot be printed as it is. */
const ID_PLACEHOLDER = 'ID';

/**
 * How to resume a paused turn from `file`: a `resume:` line whose rest is one command a person can
 * paste into a POSIX shell, every value in it quoted (request ids are chosen by the model), and,
 * for an approval, what else to know. An id that a terminal cannot show as it is (control or
 * bidirectional characters, a lone surrogate) or that is very long is written `ID`, and a line
 * says which request it stands for. Print the lines through `terminalText`.
 */
export function resumeHint(file: string, continuation: HarnessContinuation): string[] {
  const command = `agent-assistant resume --continuation ${shellQuote(file)}`;
  if (continuation.type === 'clarification') return [`resume: ${command} --answer '…'`];
  if (continuation.type !== 'approval') return [`resume: ${command}`];
  const ids = (continuation.state.approvals ?? []).map((request) => request.id);
  const unshowable = ids.flatMap((id, index) => (showable(id) ? [] : [index + 1]));
  // `--approve=ID`: an id that starts with `--` is still read as the value.
  const decisions = ids.map((id) => `--approve=${showable(id) ? shellQuote(id) : ID_PLACEHOLDER}`);
  return [
    `resume: ${[command, ...decisions].join(' ')}`,
    '        (to refuse a request, pass --reject=ID instead of its --approve)',
    ...unshowable.map(
      (number) =>
        `        (the id of request ${number} cannot be shown here; it is in --json output and the continuation file)`,
    ),
  ];
}

/** Whether an id is printed as it is: not too long, nothing a terminal would act on, no lone surrogate (it would print as U+FFFD). */
const showable = (id: string): boolean => id.length <= MAX_SHOWN_ID_LENGTH && terminalText(id) === id && !/\p{Surrogate}/u.test(id);
