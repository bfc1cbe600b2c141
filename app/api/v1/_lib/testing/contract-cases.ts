// Requests at the edges of every rule the OpenAPI document states, for the contract tests, each
// with whether it must be allowed: the tests hold both the document and the routes to that.

const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();
/** `data` whose JSON is exactly `bytes` bytes long. */
const dataOfBytes = (bytes: number) => ({ pad: "x".repeat(bytes - '{"pad":""}'.length) });

const base = { kind: "question", prompt: "Tea or coffee?" };

/** Create bodies, each changing one field of an allowed one: [what, body, allowed]. */
export function createBodyCases(): [string, unknown, boolean][] {
  const over = (
    allowed: boolean,
    label: string,
    change: Record<string, unknown>,
  ): [string, unknown, boolean] => [label, { ...base, ...change }, allowed];
  return [
    ["a plain question", base, true],
    ["not an object", [base], false],
    ["no kind", { prompt: base.prompt }, false],
    ["no prompt", { kind: base.kind }, false],
    over(false, "an unknown field", { runId: "r1" }),
    over(true, "kind of one's own", { kind: "x-deploy_2" }),
    over(true, "kind authorizations (not authorization)", { kind: "authorizations" }),
    over(false, "kind authorization", { kind: "authorization", url: "https://example.test/sign-in" }),
    over(false, "kind in capitals", { kind: "Approval" }),
    over(true, "kind of 50 letters", { kind: "a".repeat(50) }),
    over(false, "kind of 51 letters", { kind: "a".repeat(51) }),
    over(false, "kind a number", { kind: 5 }),
    over(false, "empty prompt", { prompt: "" }),
    over(false, "blank prompt", { prompt: " \t\n " }),
    over(true, "prompt with white space around it", { prompt: "  Lunch?  " }),
    over(false, "prompt with NUL", { prompt: "Ship\u0000it?" }),
    over(false, "prompt with right-to-left override", { prompt: "Approve invoice \u202Efdp.exe" }),
    over(false, "prompt with left-to-right embedding", { prompt: "\u202Aquoted\u202C" }),
    over(false, "prompt with an isolate", { prompt: "Pay \u2066x\u2069 now?" }),
    over(true, "prompt with right-to-left marks", { prompt: "\u200Fשלום\u200E 42?" }),
    over(false, "prompt a number", { prompt: 42 }),
    over(true, "prompt of 2000 characters", { prompt: "x".repeat(2_000) }),
    over(false, "prompt of 2001 characters", { prompt: "x".repeat(2_001) }),
    over(true, "prompt of 2000 emoji", { prompt: "😀".repeat(2_000) }),
    over(false, "prompt of 2001 emoji", { prompt: "😀".repeat(2_001) }),
    over(true, "https url", { url: "https://example.test/builds/812?tab=log#top" }),
    over(true, "http url in capitals", { url: "HTTP://EXAMPLE.TEST/" }),
    over(true, "url with @ in its path", { url: "https://example.test/users/@rita" }),
    over(false, "url a number", { url: 42 }),
    over(false, "javascript url", { url: "javascript:alert(1)" }),
    over(false, "ftp url", { url: "ftp://example.test/file" }),
    over(false, "url with user and password", { url: "https://rita:secret@example.test/" }),
    over(false, "url with a user name", { url: "https://rita@example.test/" }),
    over(false, "url hiding its host after credentials", { url: "http://example.test:80@evil.example/" }),
    over(false, "url with backslashes", { url: "https:\\\\rita@example.test/" }),
    over(false, "url with a space", { url: "https://example.test/a b" }),
    over(false, "url with a right-to-left override", { url: "https://example.test/\u202Efdp.exe" }),
    over(true, "url of 2000 characters, emoji among them", {
      url: `https://example.test/${"😀".repeat(1_979)}`,
    }),
    over(false, "url of 2001 characters", { url: `https://example.test/${"a".repeat(2_001 - 21)}` }),
    over(true, "data of 16 KB", { data: dataOfBytes(16 * 1024) }),
    over(false, "data of 16 KB and a byte", { data: dataOfBytes(16 * 1024 + 1) }),
    over(false, "data an array", { data: [1] }),
    over(true, "expiresAt in an hour", { expiresAt: inDays(1 / 24) }),
    over(true, "expiresAt in 364 days", { expiresAt: inDays(364) }),
    over(false, "expiresAt in 366 days", { expiresAt: inDays(366) }),
    over(false, "expiresAt in 9999", { expiresAt: "9999-12-31T00:00:00Z" }),
    over(false, "expiresAt in the past", { expiresAt: "2020-01-01T00:00:00Z" }),
    over(false, "expiresAt a number", { expiresAt: 1_900_000_000 }),
    over(false, "expiresAt in words", { expiresAt: "tomorrow" }),
    over(false, "expiresAt without a zone", { expiresAt: inDays(1).replace("Z", "") }),
    over(true, "audience owner", { audience: "owner" }),
    over(true, "an approval with a ladder", {
      kind: "approval",
      escalation: [{ after: "15m", action: "remind" }],
    }),
    over(false, "escalation not a list", { kind: "approval", escalation: "remind" }),
    over(false, "audience everyone", { audience: "everyone" }),
    over(false, "audience a list", { audience: ["owner"] }),
    // A group's audience that is well formed is refused by the handler when the group is unknown
    // (422, api-answer.test.ts); these break its shape, which the document states.
    over(false, "audience group required 0", { audience: { group: "finance", required: 0 } }),
    over(false, "audience group required 11", { audience: { group: "finance", required: 11 } }),
    over(false, "audience group required 1.5", { audience: { group: "finance", required: 1.5 } }),
    over(false, "audience group in capitals", { audience: { group: "Finance", required: 1 } }),
    over(false, "audience group without required", { audience: { group: "finance" } }),
    over(false, "audience group with an unknown field", {
      audience: { group: "finance", required: 1, m: 2 },
    }),
  ];
}

/** Bodies of POST /api/v1/requests/{id}/answer: the Answer without its id. */
export const answerBodyCases: { allowed: unknown[]; refused: unknown[] } = {
  allowed: [
    { ok: true },
    { ok: false },
    { ok: false, reason: "declined" },
    { ok: true, data: { note: "fine" } },
  ],
  refused: [
    {},
    { ok: "yes" },
    { ok: false, reason: "cancelled" },
    { ok: false, reason: 5 },
    { ok: true, id: "r1" },
    { ok: true, data: [1] },
    { ok: true, data: dataOfBytes(16 * 1024 + 1) },
    [{ ok: true }],
  ],
};

/** Values of `wait` (GET /api/v1/requests/{id}): decimal seconds up to 60 only. */
export const waitCases = {
  allowed: ["0", "30", "2.5", "60", "60.0", "007"],
  refused: ["61", "60.5", "600", "1e3", "0x10", " 5", "5 ", "Infinity", "-1", "", "1.", ".5", "NaN"],
};

/** Query parameters of GET /api/v1/requests. */
export const listQueryCases: { allowed: Record<string, string>[]; refused: Record<string, string>[] } = {
  allowed: [{}, { limit: "1" }, { limit: "100" }, { status: "open" }, { after: "x".repeat(200) }],
  refused: [
    { limit: "0" },
    { limit: "101" },
    { limit: "2.5" },
    { limit: "1e1" },
    { limit: " 5" },
    { status: "done" },
    { after: "" },
    { after: "x".repeat(201) },
  ],
};

/** Values of the Idempotency-Key header. */
export const idempotencyKeyCases = {
  allowed: ["deploy-812", "x".repeat(200)],
  refused: ["has spaces", "a\tb", "", "x".repeat(201)],
};
