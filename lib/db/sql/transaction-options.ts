// Engine writes are short, but under load (many runs parking at once on a small pool, or one
// SQLite writer) they can queue for a connection longer than Prisma's 2 s default. Waiting
// longer is better than failing a run over a busy moment.
export const engineTransaction = { maxWait: 10_000, timeout: 20_000 } as const;
