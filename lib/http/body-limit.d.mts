export const MAX_BODY_BYTES: number;
export const BODY_TOO_LARGE: Readonly<{
  code: "bad_request:body_too_large";
  status: 413;
  message: string;
}>;
export function readBodyWithin(
  chunks: AsyncIterable<Uint8Array>,
  limit?: number,
): Promise<{ status: "ok"; bytes: Uint8Array } | { status: "too_large" }>;
