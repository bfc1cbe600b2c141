import { z } from "zod";
import { outboundUrlProblem } from "@/lib/http/outbound-address";

// Tool names are `<server>_<tool>` with every character outside [A-Za-z0-9_-] replaced, so a
// server added here is named with those characters only and the prefix reads as typed.
const serverName = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/,
    "Use 1–40 letters, digits, '_' or '-', starting with a letter or digit",
  );

const serverUrl = z
  .string()
  .trim()
  .max(2000)
  // The form only: whether its address may be reached depends on the setting, checked where the
  // server is added (app/admin/_lib/manage-mcp-servers.ts) and on every connection (ADR 0056).
  .refine(
    (text) => outboundUrlProblem(text, true) === null,
    "Enter an http:// or https:// URL without a user name or password in it (put credentials in a header)",
  );

// RFC 9110 token characters; header names are compared case-insensitively.
const headerName = z
  .string()
  .trim()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, "Not a valid header name");

const headerValue = z
  .string()
  .min(1, "A header needs a value")
  .max(4000)
  .refine((text) => !/[\r\n\0]/.test(text), "A header value must be one line");

/** What an admin submits to add a remote server. Header values are secrets: they are only ever sealed. */
export const remoteServerInput = z
  .object({
    name: serverName,
    url: serverUrl,
    headers: z
      .array(z.object({ name: headerName, value: headerValue }).strict())
      .max(20)
      .default([])
      .refine(
        (headers) => new Set(headers.map((header) => header.name.toLowerCase())).size === headers.length,
        "Each header may be given once",
      ),
    /** Each user signs in on their own (MCP authorization); the client fields are optional. */
    oauth: z
      .object({
        clientId: z.string().trim().max(500).default(""),
        clientSecret: z
          .string()
          .max(2000)
          .refine((text) => !/[\r\n\0]/.test(text), "A client secret must be one line")
          .default(""),
        scope: z.string().trim().max(1000).default(""),
      })
      .strict()
      .refine((oauth) => oauth.clientSecret === "" || oauth.clientId !== "", {
        message: "A client secret needs its client ID",
        path: ["clientSecret"],
      })
      .optional(),
  })
  .strict();

export type RemoteServerInput = z.infer<typeof remoteServerInput>;

export function headersRecord(input: RemoteServerInput): Record<string, string> {
  return Object.fromEntries(input.headers.map((header) => [header.name, header.value]));
}
