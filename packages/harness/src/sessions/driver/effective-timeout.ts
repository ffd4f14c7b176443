/** The turn's timeout: the request's when it is a positive finite number below the configured one. */
export function effectiveTimeout(configured: number, requested: number | undefined): number {
  return requested !== undefined && Number.isFinite(requested) && requested > 0 ? Math.min(configured, requested) : configured;
}
