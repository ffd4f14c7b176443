/** Whose words a probe's `error` sentences use for their fixes: the probe function's options, or the `agent-assistant probe` flags. */
export type ProbeAdviceStyle = 'api' | 'cli';

/** The fixes a probe suggests for backend `id`, named as the caller can apply them. */
export function probeAdvice(id: string, style: ProbeAdviceStyle | undefined): { override: string; raiseTimeout: string } {
  return style === 'cli'
    ? { override: `or pass its path with \`--command ${id}=PATH\``, raiseTimeout: 'raise `--timeout-ms`' }
    : { override: `or pass its path in \`commands['${id}']\` (or the adapter's \`command\` option)`, raiseTimeout: 'raise `timeoutMs`' };
}
