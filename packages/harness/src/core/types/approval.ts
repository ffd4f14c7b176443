/** An action that needs a person's approval before the turn can go on. */
export interface HarnessApprovalRequest {
  id: string;
  kind: string;
  summary: string;
  details?: Record<string, unknown> | undefined;
  metadata?: Record<string, unknown> | undefined;
}
