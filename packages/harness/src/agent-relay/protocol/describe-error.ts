/** A short description of a thrown value that never throws itself (hostile getters included). */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message).slice(0, 500);
    return String(error).slice(0, 500);
  } catch {
    return 'an unreadable error';
  }
}
