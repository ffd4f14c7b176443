/** The random token each claim wrote, per continuation object, so `release` deletes only its own claim. */
export interface ClaimTokens {
  /** A fresh token for a claim of `continuation` (remembered for `take`). */
  next(continuation: object): string;
  /**
   * The token the one claim of `continuation` wrote, forgotten once taken; `undefined` when the
   * object was never claimed, or claimed more than once (which claim to release is then unknown,
   * so none is: the claim stays until it expires).
   */
  take(continuation: object): string | undefined;
}

/** Claim tokens for a guard's `release`, held weakly by continuation object. */
export function createClaimTokens(): ClaimTokens {
  const tokens = new WeakMap<object, string | null>();
  return {
    next(continuation) {
      const token = crypto.randomUUID();
      tokens.set(continuation, tokens.has(continuation) ? null : token);
      return token;
    },
    take(continuation) {
      const token = tokens.get(continuation);
      tokens.delete(continuation);
      return token ?? undefined;
    },
  };
}
