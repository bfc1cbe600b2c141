// What the proxy answers a request it refuses before the app sees it, as the app's error JSON
// (`{ code, status, message, issues }`); the codes follow the app's error codes (lib/errors.ts).
const REFUSALS = {
  "forbidden:origin": { status: 403, message: "This action was sent from another site and was refused." },
  "bad_request:malformed_json": { status: 400, message: "The request body is not valid JSON." },
  "bad_request:body_too_large": { status: 413, message: "The request body is larger than the 1 MB limit." },
} as const;

export type RefusalCode = keyof typeof REFUSALS;

export interface HttpRefusal {
  code: RefusalCode;
  status: number;
  message: string;
}

export function refusal(code: RefusalCode, message?: string): HttpRefusal {
  return { code, status: REFUSALS[code].status, message: message ?? REFUSALS[code].message };
}
