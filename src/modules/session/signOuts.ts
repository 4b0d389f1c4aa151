// Sign-outs, in memory: the routes that end website sessions say so here, and what outlives its
// request on a session (the live-update streams) listens, so it ends with the session at once.
// Another process (the CLI's `user passwd`, `user remove`) cannot reach this; a stream also
// checks its session at each keep-alive ping (events/index.ts), which covers those.

/** Something held open on one session of one account; `end` closes it. */
export interface SessionHolder {
  sessionId: number
  userId: number
  end: () => void
}

export class SignOuts {
  private readonly holders = new Set<SessionHolder>()

  /** Returns the function that stops listening. */
  listen(holder: SessionHolder): () => void {
    this.holders.add(holder)
    return () => {
      this.holders.delete(holder)
    }
  }

  /** One session ended (sign-out). */
  sessionEnded(sessionId: number): void {
    this.endWhere((holder) => holder.sessionId === sessionId)
  }

  /** Every session of the account ended (sign out everywhere, a new password). */
  accountSignedOut(userId: number): void {
    this.endWhere((holder) => holder.userId === userId)
  }

  // A copy: `end` usually stops listening, which changes the set.
  private endWhere(matches: (holder: SessionHolder) => boolean): void {
    for (const holder of [...this.holders]) if (matches(holder)) holder.end()
  }
}
