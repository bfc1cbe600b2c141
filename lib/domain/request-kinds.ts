import type { Audience } from "./events";

// Every kind of request the app knows, and what each means to the rest of the app. Adding a kind
// is adding an entry here: the `form` union is switched on exhaustively where requests are
// rendered, so the compiler lists whatever else must learn it (docs/architecture.md).

/** How a request of the kind is answered on a page; each form is one component. */
export type RequestKindForm =
  /** Approve or decline, with editable arguments and a note. */
  | "approval"
  /** A JSON-Schema form (an MCP server's form elicitation is one too). */
  | "input"
  /** One field per question of `data.questions`. */
  | "question"
  /** A link to the provider; it completes only through its callback. */
  | "sign-in"
  /** A kind the app does not know: a schema form when `data.schema` is given, else a JSON box. */
  | "data";

export interface RequestKindSpec {
  /** What people read for the kind: the inbox's filter, badges, mail. */
  label: string;
  /** Who answers it unless the tool gate addressed it (see `audienceFromGate`). */
  audience: Audience;
  /** The tool gate may address it to the chat's owner instead, through `data.audience`. */
  audienceFromGate: boolean;
  /** Reviewers may approve or decline several at once from the inbox. */
  bulkApprovable: boolean;
  /** What a positive answer is called wherever an outcome is shown (see `outcome.ts`). */
  answeredAs: "approved" | "answered";
  /** Programs may ask it through the HTTP API (a sign-in needs a tool's OAuth flow). */
  creatableByApi: boolean;
  form: RequestKindForm;
}

export const REQUEST_KINDS = {
  approval: {
    label: "Approval",
    audience: "reviewers",
    audienceFromGate: true,
    bulkApprovable: true,
    answeredAs: "approved",
    creatableByApi: true,
    form: "approval",
  },
  input: {
    label: "Form",
    audience: "owner",
    audienceFromGate: false,
    bulkApprovable: false,
    answeredAs: "answered",
    creatableByApi: true,
    form: "input",
  },
  question: {
    label: "Question",
    audience: "owner",
    audienceFromGate: false,
    bulkApprovable: false,
    answeredAs: "answered",
    creatableByApi: true,
    form: "question",
  },
  authorization: {
    label: "Sign-in",
    audience: "owner",
    audienceFromGate: false,
    bulkApprovable: false,
    answeredAs: "answered",
    creatableByApi: false,
    form: "sign-in",
  },
} as const satisfies Record<string, RequestKindSpec>;

export type KnownRequestKind = keyof typeof REQUEST_KINDS;

export const KNOWN_REQUEST_KINDS = Object.keys(REQUEST_KINDS) as KnownRequestKind[];

/** Kinds of a program's own (the API takes any name): answered by the owner, as data. */
export const OTHER_REQUEST_KIND: RequestKindSpec = {
  label: "Other",
  audience: "owner",
  audienceFromGate: false,
  bulkApprovable: false,
  answeredAs: "answered",
  creatableByApi: true,
  form: "data",
};

export function isKnownRequestKind(kind: string): kind is KnownRequestKind {
  return Object.hasOwn(REQUEST_KINDS, kind);
}

/** What the app knows of a stored request's kind, which is any string. */
export function requestKindSpec(kind: string): RequestKindSpec {
  return isKnownRequestKind(kind) ? REQUEST_KINDS[kind] : OTHER_REQUEST_KIND;
}

/** For an exhaustive `switch`: a new member of the union fails to compile where this is reached. */
export function unhandledKindForm(form: never): never {
  throw new Error(`No page handles the request form ${String(form)}`);
}
