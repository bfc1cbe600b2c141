// A process told to terminate hands its runs over before it goes: `stop` stops claiming, aborts
// what it drives and releases the leases, so a peer continues at once instead of after a lease.
// Next's own handler for the same signals closes the server and then calls `process.exit`; that
// exit is held back until the handover is done (at most `graceMs`), so both shutdowns complete.
// Where nothing else handles the signal, the process exits after the handover as Node would
// have without a listener.

const exitCodes = { SIGTERM: 143, SIGINT: 130 } as const;

export function handOverOnTerminate(
  stop: () => Promise<void>,
  {
    graceMs = 5_000,
    signals = ["SIGTERM", "SIGINT"],
  }: { graceMs?: number; signals?: (keyof typeof exitCodes)[] } = {},
): () => void {
  let handover: Promise<void> | undefined;

  const onSignal = (signal: keyof typeof exitCodes) => {
    if (handover) return;
    const exit = process.exit.bind(process);
    const bounded = Promise.race([
      stop().catch((error: unknown) => console.error("[engine] handover failed", error)),
      new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref()),
    ]);
    handover = bounded;
    process.exit = ((code?: number) => {
      void bounded.then(() => exit(code));
    }) as typeof process.exit;
    const othersHandle = process.listenerCount(signal) > 1;
    if (!othersHandle) void bounded.then(() => exit(exitCodes[signal]));
  };

  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
